"""Web Push end to end (issue 21, 1): the game's events queue notices in their own
transaction, the scheduler's job sends them to a real push service on 127.0.0.1, and
each device checks the VAPID signature and decrypts its notice as a browser would.

Each notice kind reaches each language (EN, DE, ES), signed for the push service's
origin, with the game's Topic, saying what the mail says and no secret; 410 removes
the device, 503 is retried with back-off and delivered once the service is back,
the queue outlives a restart, and no notice reaches a player of another game or the
former holder of a handed-on seat.
"""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import func, select

from vpsleuth import create_app, jobs
from vpsleuth.extensions import db
from vpsleuth.models import GameSecret, Notice, PushSubscription, utcnow
from vpsleuth.notices.push import topic
from vpsleuth.rules import GEMS, Distribution
from vpsleuth.services import board, push, reminders, resolution, seats, stories, turns

from .conftest import subscribed
from .push_service import check_vapid

# What each notice's title says in each reader's language (Opal Court, round 1).
TITLES = {
    "round_opened": {"en": "Opal Court: round 1 is open", "de": "Opal Court: Runde 1 läuft",
                     "es": "Opal Court: la ronda 1 está abierta"},
    "reminder": {"en": "Opal Court: 3 hours left for round 1",
                 "de": "Opal Court: noch 3 Stunden für Runde 1",
                 "es": "Opal Court: quedan 3 horas para la ronda 1"},
    "announcement": {"en": "Opal Court: an announcement from the game master",
                     "de": "Opal Court: eine Ankündigung der Spielleitung",
                     "es": "Opal Court: un anuncio del director de juego"},
    "report": {"en": "Opal Court: report of round 1", "de": "Opal Court: Bericht zu Runde 1",
               "es": "Opal Court: informe de la ronda 1"},
    "final": {"en": "Opal Court: final report", "de": "Opal Court: Schlussbericht",
              "es": "Opal Court: informe final"},
    "turn_received": {"en": "Opal Court: your turn for round 1 is stored",
                      "de": "Opal Court: dein Zug für Runde 1 ist gespeichert",
                      "es": "Opal Court: tu turno para la ronda 1 está guardado"},
}
BODIES = {
    "report": {"en": 'The report of round 1 of "Opal Court" is out.',
               "de": "Der Bericht zu Runde 1 von „Opal Court“ ist da.",
               "es": "Ya está el informe de la ronda 1 de «Opal Court»."},
    "final": {"en": 'The final report of "Opal Court" is out.',
              "de": "Der Schlussbericht von „Opal Court“ ist da.",
              "es": "Ya está el informe final de «Opal Court»."},
    "turn_received": {"en": "Your mail with the turn has arrived. The deadline is",
                      "de": "Deine Mail mit dem Zug ist angekommen. Abgabetermin ist",
                      "es": "Tu correo con el turno ha llegado. El plazo termina el"},
}
LANGS = {"Ada": "en", "Ben": "de", "Cruz": "es"}
BASE = "http://localhost:5000"  # services/links.py, before any `vpsleuth serve`


def send(app, now=None) -> int:
    """Run the scheduler's job, as the scheduler does, after the test's commit."""
    db.session.commit()
    sent = jobs.send_notices(app, now)
    db.session.expire_all()
    return sent


def notices(game, **where) -> list[Notice]:
    db.session.expire_all()
    return list(db.session.scalars(select(Notice).where(
        Notice.game_id == game.id, *[getattr(Notice, k) == v for k, v in where.items()])
        .order_by(Notice.id)))


def read_new(table, seen: dict[str, int]) -> dict[str, list[dict]]:
    """What each player's device received since the last call: checked (VAPID, Topic,
    Urgency, TTL) and decrypted."""
    public = push.vapid_public_key()
    out = {}
    for name, device in table.devices.items():
        pushes = device.received()[seen.get(name, 0):]
        seen[name] = seen.get(name, 0) + len(pushes)
        for p in pushes:
            check_vapid(p, device.service.origin, public)
            assert p.headers["ttl"] == "86400"
            assert p.headers["urgency"] in ("high", "normal", "low")
        out[name] = [(device.read(p), p.headers) for p in pushes]
    return out


def secrets_of(game) -> set[str]:
    """Every gem code the distribution places (e.g. RD1): none may be in a notice."""
    secret = db.session.get(GameSecret, game.id)
    return set(re.findall(r"[A-Z]{2}\d", secret.distribution))


def check_no_secret(payload: dict, codes: set[str]) -> None:
    text = " ".join(payload.values())
    assert not any(code in text for code in codes), payload
    assert "TIP" not in text and "QUESTION" not in text


def test_every_kind_reaches_every_language_signed_encrypted_and_telling_no_secret(
        app, table):
    start = table.start()
    game = table.game
    # Queued with the round, in its transaction; nothing is sent before the job runs.
    assert len(notices(game, status="pending")) == 3
    assert all(not d.received() for d in table.devices.values())
    codes, seen = secrets_of(game), {}

    assert send(app) == 3
    got = read_new(table, seen)
    assert got["Zoe"] == []  # Other Hall's player hears nothing of Opal Court
    for name, lang in LANGS.items():
        [(payload, headers)] = got[name]
        assert payload["title"] == TITLES["round_opened"][lang]
        assert payload["url"] == f"{BASE}/games/{game.id}/turn"
        assert payload["tag"] == f"game-{game.id}"
        assert headers["topic"] == topic(game.id) and len(headers["topic"]) <= 32
        assert re.fullmatch(r"[A-Za-z0-9_-]+", headers["topic"])
        assert headers["urgency"] == "normal"
        check_no_secret(payload, codes)
    assert "20:00" in got["Ada"][0][0]["body"]  # the deadline, in the reader's words
    assert "20:00" in got["Ben"][0][0]["body"] and "Abgabetermin" in got["Ben"][0][0]["body"]

    # A reminder, 3 hours before the deadline (the game's lead times: 24 and 4 hours).
    reminders.send_reminders(start.deadline - timedelta(hours=3))
    send(app)
    got = read_new(table, seen)
    for name, lang in LANGS.items():
        [(payload, headers)] = got[name]
        assert payload["title"] == TITLES["reminder"][lang]
        assert headers["urgency"] == "high"

    # A turn by mail is told; one on the web is not (the page said it).
    ada, ben, cruz = (table.players[n] for n in ("Ada", "Ben", "Cruz"))
    turns.submit_turn(ada, "QUESTION E blue opal\nTIP A RD1", channel="email")
    turns.submit_turn(ben, "FRAGE E blaue Opale", channel="email")
    turns.submit_turn(cruz, "PREGUNTA E ópalos azules", channel="email")
    turns.submit_turn(cruz, "PREGUNTA D ópalos azules", channel="web")
    send(app)
    got = read_new(table, seen)
    for name, lang in LANGS.items():
        [(payload, _)] = got[name]
        assert payload["title"] == TITLES["turn_received"][lang]
        assert payload["body"].startswith(BODIES["turn_received"][lang])
        assert payload["url"] == f"{BASE}/games/{game.id}"
        check_no_secret(payload, codes)

    # A board post to those whose board setting is not "none", not its author; the GM's
    # announcement to all.
    board.post(table.game, "Who else thinks\nthe opals are\n\nin the east?", player=ada,
               channel="web")
    board.post(table.game, "Ich nicht.", player=ben, channel="web")
    send(app)
    got = read_new(table, seen)
    assert [p["title"] for p, _ in got["Ada"]] == ["Opal Court: Ben wrote on the board"]
    assert [(p["title"], p["body"]) for p, _ in got["Ben"]] == [
        ("Opal Court: Ada hat an die Pinnwand geschrieben",
         "Who else thinks the opals are in the east?")]
    assert [p["title"] for p, _ in got["Cruz"]] == [
        "Opal Court: Ada ha escrito en el tablón", "Opal Court: Ben ha escrito en el tablón"]
    assert all(p["url"] == f"{BASE}/games/{game.id}/board" and h["urgency"] == "low"
               for name in LANGS for p, h in got[name])
    cruz.board_mail = "none"
    db.session.commit()
    board.post(table.game, "Und jetzt?", player=ben, channel="web")
    board.announce(table.game, "Round 2 comes a day later.", actor="gm", channel="web")
    send(app)
    got = read_new(table, seen)
    assert [p["title"] for p, _ in got["Ada"]] == ["Opal Court: Ben wrote on the board",
                                                  TITLES["announcement"]["en"]]
    assert [p["title"] for p, _ in got["Ben"]] == [TITLES["announcement"]["de"]]
    assert [(p["title"], p["body"], h["urgency"]) for p, h in got["Cruz"]] == [
        (TITLES["announcement"]["es"], "Round 2 comes a day later.", "normal")]

    # The round's report: that it is out, never what it says.
    resolution.resolve_round(table.game)
    send(app)
    got = read_new(table, seen)
    for name, lang in LANGS.items():
        reports = [p for p, _ in got[name] if p["url"].endswith("/rounds/1")]
        assert [(p["title"], p["body"]) for p in reports] == \
            [(TITLES["report"][lang], BODIES["report"][lang])]
        opened = [p for p, _ in got[name] if p["url"].endswith("/turn")]
        assert len(opened) == 1 and "2" in opened[0]["title"]  # round 2 opened with it
        for payload, _ in got[name]:
            check_no_secret(payload, codes)
    assert all(n.status == "sent" for n in notices(game))
    assert all(s.last_sent_at is not None for s in db.session.scalars(
        select(PushSubscription).where(PushSubscription.email != "zoe@example.org")))

    # The other game's round: its player hears of it, Opal Court's players do not.
    resolution.resolve_round(table.other)
    send(app)
    got = read_new(table, seen)
    assert [p["url"] for p, _ in got["Zoe"]] == [
        f"{BASE}/games/{table.other.id}/rounds/1", f"{BASE}/games/{table.other.id}/turn"]
    assert all(got[name] == [] for name in LANGS)


def test_a_device_the_push_service_says_is_gone_is_removed(app, table, service):
    service.answers[table.devices["Ben"].token] = 410
    table.start()
    assert send(app) == 2
    [gone] = notices(table.game, player_id=table.players["Ben"].id)
    assert gone.status == "dropped" and "410" in gone.last_error
    assert gone.subscription_id is None or db.session.get(
        PushSubscription, gone.subscription_id) is None
    assert push.devices("ben@example.org") == []
    assert len(push.devices("ada@example.org")) == 1
    # The next round has nothing for Ben to send to.
    resolution.resolve_round(table.game)
    db.session.commit()
    assert notices(table.game, player_id=table.players["Ben"].id, status="pending") == []


def test_a_push_service_that_is_down_is_retried_with_back_off_until_it_is_back(
        app, table, service):
    cruz = table.devices["Cruz"]
    service.answers[cruz.token] = 503
    table.start()
    now = utcnow()
    assert send(app, now) == 2
    [waiting] = notices(table.game, player_id=table.players["Cruz"].id)
    assert (waiting.status, waiting.attempts) == ("pending", 1)
    assert "503" in waiting.last_error
    assert waiting.next_attempt_at == now + timedelta(minutes=1)
    assert send(app, now + timedelta(seconds=30)) == 0  # backing off: not tried
    assert send(app, now + timedelta(minutes=1, seconds=1)) == 0  # tried: still down
    [waiting] = notices(table.game, player_id=table.players["Cruz"].id)
    assert waiting.attempts == 2
    assert waiting.next_attempt_at == now + timedelta(minutes=1, seconds=1) + \
        timedelta(minutes=2)
    del service.answers[cruz.token]  # the push service is back
    assert send(app, now + timedelta(minutes=4)) == 1
    [(payload, _)] = [(cruz.read(p), p) for p in cruz.received()]
    assert payload["title"] == TITLES["round_opened"]["es"]
    assert notices(table.game, player_id=table.players["Cruz"].id)[0].status == "sent"


def test_queued_notices_survive_a_restart_and_the_new_process_signs_with_the_same_key(
        app, table):
    public = push.vapid_public_key()  # made and kept by the first process
    table.start()
    db.session.commit()
    fresh = create_app({key: app.config[key] for key in (
        "SQLALCHEMY_DATABASE_URI", "DATABASE_KIND", "PUSH_ALLOW_LOOPBACK")})
    try:
        assert jobs.send_notices(fresh) == 3
        with fresh.app_context():
            assert push.vapid_public_key() == public
    finally:
        with fresh.app_context():
            db.engine.dispose()
    for name in LANGS:
        device = table.devices[name]
        [p] = device.received()
        check_vapid(p, device.service.origin, public)
        assert device.read(p)["title"] == TITLES["round_opened"][LANGS[name]]


def test_the_former_holder_of_a_handed_on_seat_hears_nothing_more(app, table, service):
    table.start()
    send(app)
    dora = subscribed(service, "dora@example.org")
    seats.replace_player(table.game, table.players["Ada"], "Dora", "dora@example.org",
                         actor="gm", language="de")
    resolution.resolve_round(table.game)
    send(app)
    assert len(table.devices["Ada"].received()) == 1  # round 1 opening, before the change
    titles = [dora.read(p)["title"] for p in dora.received()]
    assert titles == ["Opal Court: Bericht zu Runde 1", "Opal Court: Runde 2 läuft"]
    assert db.session.scalar(select(func.count()).select_from(Notice).where(
        Notice.subscription_id == db.session.scalar(select(PushSubscription.id).where(
            PushSubscription.email == "ada@example.org")),
        Notice.created_at > utcnow() - timedelta(minutes=5))) == 1


def test_the_final_report_is_announced_once_when_its_story_is_told(app, table):
    table.start()
    send(app)
    deal = Distribution.from_canonical(db.session.get(GameSecret, table.game.id).distribution)
    everything = "\n".join(f"TIP {deal[gem]} {gem.code}" for gem in GEMS)
    for player in table.players.values():  # every player solves the deal: the game ends
        turns.submit_turn(player, everything, channel="web")
    resolution.resolve_round(table.game)
    assert table.game.state == "finished"
    send(app)
    assert all(len(d.received()) == 1 for d in table.devices.values() if d is not
               table.devices["Zoe"])  # the final report waits for the game's story
    assert stories.tell_queued() == [table.game.id]
    send(app)
    stories.release_overdue(utcnow() + timedelta(hours=1))  # told already: nothing more
    send(app)
    for name, lang in LANGS.items():
        device = table.devices[name]
        [opened, final] = [device.read(p) for p in device.received()]
        assert (final["title"], final["body"]) == (TITLES["final"][lang], BODIES["final"][lang])
        assert final["url"] == f"{BASE}/games/{table.game.id}/rounds/1"
        check_no_secret(final, secrets_of(table.game))
