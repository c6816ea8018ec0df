"""Mail that lets go (issue 21, 4): a one-click List-Unsubscribe (RFC 8058) in every round
mail, reminder, digest and board post, whose POST turns that kind off for that player only.

Four players of "Lantern Row" in English, German and Spanish get, through the
real SMTP sink, the round's mail, a reminder, a board post (Ada and Cleo read
each post) and a digest (Ben and Dan read the digest). Each received mail's
headers are read as a mail program reads them; the links are POSTed over real
HTTP to the served app with ``List-Unsubscribe=One-Click``, no cookie, no CSRF
token, as a mail provider does. A GET, a token altered in one character, one
edited to name another player or another kind change nothing.
"""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
import requests
from itsdangerous.encoding import base64_decode, base64_encode
from served import served
from smtp_sink import mailing_to
from sqlalchemy import select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, Player
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import board, board_digest, games, reminders, resolution, turns

pytestmark = pytest.mark.live_db  # a real server in a thread writes the database

BASE = "https://sleuth.test"  # the public address links in mails start with
LINK = re.compile(r"<(https://sleuth\.test/unsubscribe/[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+)>")
ONE_CLICK = "List-Unsubscribe=One-Click"
# (name, address, language, board mail)
PLAYERS = (("Ada", "ada@example.org", "en", "each"), ("Ben", "ben@example.org", "de", "digest"),
           ("Cleo", "cleo@example.org", "es", "each"), ("Dan", "dan@example.org", "en", "digest"))
KINDS = ("round_opened", "reminder", "board_post", "board_digest")


def settings() -> dict[str, tuple[bool, bool, bool, str]]:
    """Every player's mail switches as the database holds them now."""
    db.session.rollback()  # read what the server committed
    return {p.name: (p.wants_round_mail, p.wants_reminders, p.wants_confirmations, p.board_mail)
            for p in db.session.scalars(select(Player))}


def send(app, sink) -> None:
    db.session.commit()
    with mailing_to(app, sink) as mailing:
        jobs.send_outbox(mailing)


def received(sink, kind: str) -> dict[str, object]:
    """The mails of ``kind`` the sink received, by the recipient's address."""
    ids = {m: a for m, a in db.session.execute(select(
        OutboxMessage.message_id, OutboxMessage.to_addr).where(OutboxMessage.kind == kind))}
    return {ids[m["Message-ID"]]: m for m in sink.messages if m["Message-ID"] in ids}


def link_of(mail) -> str:
    """The one https link of List-Unsubscribe, checked to be as RFC 2369 and 8058 ask."""
    value = str(mail["List-Unsubscribe"])
    match = LINK.fullmatch(value)
    assert match, f"not one <https://...> link: {value!r}"
    assert str(mail["List-Unsubscribe-Post"]) == ONE_CLICK
    assert len(mail.get_all("List-Unsubscribe")) == 1
    return match.group(1)


@pytest.fixture
def delivered(app, sink):
    """The game, and per kind of mail the links each player received."""
    app.config["BASE_URL"] = BASE
    first = to_local(datetime.now(UTC) + timedelta(days=7), "Europe/Berlin")
    game = games.create_game("Lantern Row", weekly(first.strftime("%Y-%m-%d 20:00"),
                                                   "Europe/Berlin"))
    for name, email, lang, _ in PLAYERS:
        games.add_player(game, name, email, language=lang)
    games.start_game(game, seed=4)
    for player, (_, _, _, reading) in zip(game.players, PLAYERS, strict=True):
        player.board_mail = reading
    db.session.commit()
    reminders.send_reminders(now=game.open_round.deadline - timedelta(hours=3))
    ada, ben, cleo, dan = game.players
    board.post(game, "Lanterns lit, good luck all.", player=dan, channel="web")  # to Ada, Cleo
    board.post(game, "And to you.", player=ada, channel="web")  # to Cleo
    board.announce(game, "Round 2 waits a day.", actor="gm@example.org", channel="cli")
    morning = datetime.now(UTC).replace(hour=10, minute=0)  # 11:00 or 12:00 in Berlin
    assert sorted(board_digest.send_digests(morning)) == [ben.id, dan.id]
    turns.submit_turn(ada, "QUESTION A diamond", channel="web")  # a confirmation: no link
    send(app, sink)
    links = {}
    for kind in KINDS:
        mails = received(sink, kind)
        links[kind] = {address: link_of(mail) for address, mail in mails.items()}
    for kind in ("board_announcement", "confirmation", "invitation"):
        mails = received(sink, kind)
        assert mails, kind
        assert all(m["List-Unsubscribe"] is None and m["List-Unsubscribe-Post"] is None
                   for m in mails.values()), kind
    return game, links


def post(base: str, link: str, body: str = ONE_CLICK) -> requests.Response:
    """The one-click POST as a mail provider makes it: no cookie, no CSRF token."""
    return requests.post(base + urlsplit(link).path, data=body, timeout=10, headers={
        "Content-Type": "application/x-www-form-urlencoded"}, allow_redirects=False)


def test_each_kind_of_mail_has_a_link_that_turns_that_kind_off_for_its_reader_only(
        app, sink, delivered):
    game, links = delivered
    assert sorted(links["round_opened"]) == sorted(p[1] for p in PLAYERS)
    assert sorted(links["reminder"]) == sorted(p[1] for p in PLAYERS)
    assert sorted(links["board_post"]) == ["ada@example.org", "cleo@example.org"]
    assert sorted(links["board_digest"]) == ["ben@example.org", "dan@example.org"]
    every = [link for by in links.values() for link in by.values()]
    assert len(set(every)) == len(every) == 12  # each player's and kind's own
    start = settings()
    assert start["Ada"] == (True, True, True, "each")

    with served(app) as base:
        expected = dict(start)
        for kind, address, changed in (
                ("round_opened", "ada@example.org", ("Ada", 0, False)),
                ("reminder", "ben@example.org", ("Ben", 1, False)),
                ("board_digest", "dan@example.org", ("Dan", 3, "none")),
                ("board_post", "cleo@example.org", ("Cleo", 3, "none"))):
            answer = post(base, links[kind][address])
            assert answer.status_code == 200, (kind, answer.text)
            assert "Set-Cookie" not in answer.headers
            name, at, value = changed
            row = list(expected[name])
            row[at] = value
            expected[name] = tuple(row)
            assert settings() == expected, kind  # that kind, that player, nothing else
        # Pressed once more (a provider retrying): the same, and still 200.
        assert post(base, links["round_opened"]["ada@example.org"]).status_code == 200
        assert settings() == expected
        page = post(base, links["reminder"]["ben@example.org"]).text
        assert "Erinnerungen sind abgeschaltet" in page and "Lantern Row" in page

    # The next round: no round mail for Ada, the others' still come; and the report
    # (which cannot be turned off) to all four.
    sink.reset()
    resolution.resolve_round(game, number=1)
    send(app, sink)
    assert sorted(received(sink, "round_opened")) == [
        "ben@example.org", "cleo@example.org", "dan@example.org"]
    assert len(received(sink, "report")) == 4


def _edited(token: str, **change) -> str:
    """The token with its payload changed and its signature kept: a forgery."""
    payload, signature = token.split(".")
    player_id, kind, generation = json.loads(base64_decode(payload))
    values = {"player_id": player_id, "kind": kind, "generation": generation, **change}
    forged = json.dumps([values["player_id"], values["kind"], values["generation"]],
                        separators=(",", ":"))
    return base64_encode(forged).decode() + "." + signature


def _one_character_off(token: str, at: int) -> str:
    new = "A" if token[at] != "A" else "B"
    return token[:at] + new + token[at + 1:]


def test_a_get_an_altered_token_or_one_edited_to_another_player_or_kind_changes_nothing(
        app, delivered):
    game, links = delivered
    ada, ben = game.players[0], game.players[1]
    start = settings()
    ada_round = urlsplit(links["round_opened"]["ada@example.org"]).path.rsplit("/", 1)[1]
    payload, signature = ada_round.split(".")
    forgeries = {
        "signature one character off": f"{payload}.{_one_character_off(signature, 3)}",
        "payload one character off": f"{_one_character_off(payload, 4)}.{signature}",
        "Ada's link edited to Ben": _edited(ada_round, player_id=ben.id),
        "edited to reminders": _edited(ada_round, kind="reminder"),
        "cut short": ada_round[:-6],
        "not a token at all": "unsubscribe-me",
    }
    with served(app) as base:
        # A GET (a mail scanner fetching links) only asks, in the reader's language.
        page = requests.get(f"{base}/unsubscribe/{ada_round}", timeout=10)
        assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
        text = html.unescape(page.text)
        assert 'For Ada in the game "Lantern Row".' in text and 'id="unsubscribe"' in text
        assert "Turn off round mails?" in text and "csrf_token" not in text
        cleo = urlsplit(links["board_post"]["cleo@example.org"]).path
        assert "¿Desactivar los correos del tablón?" in requests.get(base + cleo, timeout=10).text
        assert settings() == start

        for what, token in forgeries.items():
            for method in ("GET", "POST"):
                answer = requests.request(method, f"{base}/unsubscribe/{token}", data=ONE_CLICK,
                                          timeout=10, headers={
                                              "Content-Type": "application/x-www-form-urlencoded"})
                assert answer.status_code == 400, (what, method)
                assert "this unsubscribe link is not valid" in answer.text.lower(), what
                assert settings() == start, what

        # Once the seat's address has changed, an old mail's link turns nothing off.
        ada.key_generation = (ada.key_generation or 0) + 1
        db.session.commit()
        stale = post(base, f"/unsubscribe/{ada_round}")
        assert stale.status_code == 404 and "no longer in use" in stale.text
        assert settings() == start
