"""Twenty turns sent at once by one player, by web, API and mail: the one received last wins.

"Received last" is by the time each was received (TurnVersion.received_at, taken
as the submission comes in), the order stored (id) breaking a tie: what the
player sees beside each version, whichever one the database numbered first.

The service runs on a real threaded HTTP server (each request in a thread of
its own, with its own session and connection); the API and the turn page get
real requests, and mail goes through the inbound pipeline as an MTA pipe hands
it in, one thread per message. Every turn is a whole turn (DROP ALL, a
question, tips of its own), so the standing turn must be exactly the version
stored last. tests/turn_gate.py holds each submission at the lock on its round
until all twenty are stored, then lets them apply in reverse receipt order or
shuffled: the stored-first-applied-last case happens every time, not only
when the machine is busy. A third run lets them race freely. A fourth stores
them in the reverse of their arrival (tests/turn_gate.py's store gate), so the
version with the highest id is the one received first.
"""

from __future__ import annotations

import http.cookiejar
import json
import random
import re
import threading
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

import pytest
from served import served
from smtp_sink import DATABASES
from sqlalchemy import select
from turn_gate import lock_gate, store_gate

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound import pipeline
from vpsleuth.models import (
    InboundMessage,
    OutboxMessage,
    Player,
    StandingQuestion,
    StandingTip,
    TurnVersion,
    utcnow,
)
from vpsleuth.orders import format_turn, parse_turn
from vpsleuth.rules import ATTRIBUTES, GEMS, LOCATIONS, PLACEHOLDERS
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import accounts, auth, games, turns

CHANNELS = ["api", "web", "email"] * 6 + ["api", "web"]  # 7 + 7 + 6 = 20
# Held before it is stored, a mail's submission would keep SQLite's write lock from the
# others (the pipeline has written the message's row in the same transaction by then).
STORED_BY_THE_GATE = ["api", "web"] * 10
N = len(CHANNELS)
# Every submission holds a connection while the gate keeps it waiting for the lock.
POOL = {"pool_pre_ping": True, "pool_size": N + 5, "max_overflow": 5}
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
ORDERS = {"reversed": list(reversed(range(N))),
          "shuffled": random.Random(5).sample(range(N), N),
          "free": None}
WAIT = 120  # seconds for any one request


@pytest.fixture(params=DATABASES)
def app(request, app_on):
    with app_on(request.param, SQLALCHEMY_ENGINE_OPTIONS=POOL) as app:
        yield app


def whole_turns() -> list[str]:
    """Twenty turns that each replace everything: DROP ALL, a question, tips of their own."""
    rng, texts = random.Random(9), []
    for i in range(N):
        question = f"QUESTION {PLACEHOLDERS[i % 7]} {ATTRIBUTES[i % len(ATTRIBUTES)].word('en')}"
        tips = ", ".join(f"{rng.choice(LOCATIONS)} {g.code}" for g in rng.sample(GEMS, 3 + i % 5))
        texts.append(f"DROP ALL\n{question}\nTIP {tips}\n# turn {i}")
    return texts


def web_client(base: str, email: str, game_id: int) -> tuple[urllib.request.OpenerDirector, str]:
    """A browser stand-in signed in by link as ``email``, and the CSRF token of its turn page."""
    token = auth.issue_token(email)
    db.session.commit()
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def csrf_on(path: str) -> str:
        return CSRF.search(opener.open(f"{base}{path}", timeout=WAIT).read().decode()).group(1)

    opener.open(f"{base}/signin/{token}", urllib.parse.urlencode(
        {"csrf_token": csrf_on(f"/signin/{token}")}).encode(), timeout=WAIT).read()
    return opener, csrf_on(f"/games/{game_id}/turn")


def reply_mail(player: Player, text: str) -> bytes:
    """A reply to the service with the turn in its body, as a mail client sends it."""
    msg = EmailMessage()
    msg["From"] = f"{player.name} <{player.email}>"
    msg["To"] = keys.reply_address(player)
    msg["Subject"] = "Re: my turn"
    msg["Date"] = formatdate()
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg.set_content(text)
    return msg.as_bytes()


@pytest.mark.parametrize("order", ORDERS.values(), ids=ORDERS.keys())
def test_twenty_turns_sent_at_once_leave_the_one_received_last_standing(app, order):
    send_twenty(app, order, CHANNELS)


def test_twenty_turns_stored_in_the_reverse_of_their_arrival_leave_the_one_received_last(app):
    player_id, round_id = send_twenty(app, None, STORED_BY_THE_GATE, store_latest_first=True)
    times = [v.received_at for v in db.session.scalars(select(TurnVersion).where(
        TurnVersion.player_id == player_id, TurnVersion.round_id == round_id)
        .order_by(TurnVersion.id))]
    assert times == sorted(times, reverse=True) and times[0] > times[-1], \
        "the gate stored them latest first"


def send_twenty(app, order: list[int] | None, channels: list[str],
                store_latest_first: bool = False):
    """Twenty whole turns from Ada at once; checks the one received last stands.

    Returns (Ada's id, the round's id).
    """
    deadline = to_local(utcnow() + timedelta(days=7), "UTC").strftime("%Y-%m-%d %H:%M")
    game = games.create_game("Burst", weekly(deadline, "UTC"))
    ada = games.add_player(game, "Ada", "ada@example.org")
    games.start_game(game, seed=6)
    api_token = accounts.issue_api_token(player=ada)[1]
    texts = whole_turns()
    with served(app) as base:
        browsers = [web_client(base, ada.email, game.id) for c in channels if c == "web"]
        mails = {i: reply_mail(ada, text) for i, (c, text)
                 in enumerate(zip(channels, texts, strict=True)) if c == "email"}
        sent = burst(app, base, game.id, texts, api_token, browsers, mails, order,
                     channels, store_latest_first)
    assert sent == dict.fromkeys(range(N), "ok")
    check(ada.id, game.open_round.id, texts, channels)
    return ada.id, game.open_round.id


def burst(app, base: str, game_id: int, texts: list[str], api_token: str,
          browsers: list, mails: dict[int, bytes], order: list[int] | None,
          channels: list[str], store_latest_first: bool = False) -> dict[int, str]:
    """Send all twenty at once; returns what each sender saw ("ok" or what went wrong).

    ``order``: the order they take the round's lock in (receipt ranks), or None;
    ``store_latest_first``: stored in the reverse of their receipt instead.
    """
    outcome: dict[int, str] = {}
    start = threading.Barrier(N, timeout=WAIT)
    web = iter(browsers)

    def api(i: int) -> None:
        request = urllib.request.Request(
            f"{base}/api/v1/games/{game_id}/turn", method="PUT",
            data=json.dumps({"text": texts[i], "round": 1}).encode(),
            headers={"Authorization": f"Bearer {api_token}",
                     "Content-Type": "application/json"})
        start.wait()
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            body = json.load(response)
        outcome[i] = "ok" if body["version"]["status"] == "accepted" else repr(body)

    def page(i: int, opener, csrf: str) -> None:
        form = urllib.parse.urlencode({"csrf_token": csrf, "action": "text", "round": 1,
                                       "text": texts[i]}).encode()
        start.wait()
        response = opener.open(f"{base}/games/{game_id}/turn", form, timeout=WAIT)
        outcome[i] = "ok" if response.status == 200 else f"HTTP {response.status}"

    def mail(i: int) -> None:
        with app.app_context():
            try:
                start.wait()
                received = pipeline.receive(mails[i], "pipe")
                outcome[i] = "ok" if received.status == "applied" else repr(received)
            finally:
                db.session.remove()

    def run(i: int, target, *args) -> None:
        try:
            target(i, *args)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            outcome[i] = repr(exc)

    threads = [threading.Thread(target=run, args=(i, api) if c == "api" else
                                (i, page, *next(web)) if c == "web" else (i, mail))
               for i, c in enumerate(channels)]
    gate_of_choice = (store_gate(N) if store_latest_first
                      else lock_gate(db.engine, N, order) if order else _no_gate())
    with gate_of_choice as gate:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=2 * WAIT)
    assert not any(t.is_alive() for t in threads)
    if gate is not None:
        assert gate.failures == []
    if order:
        ranks = gate.ranks
        assert [ranks[v] for v in gate.locked] == order, "the gate kept the order asked for"
    return outcome


@contextmanager
def _no_gate() -> Iterator[None]:
    yield None


def check(player_id: int, round_id: int, texts: list[str], channels: list[str]) -> None:
    """All twenty kept and accepted; the one received last stands, and was confirmed last."""
    db.session.expire_all()
    versions = db.session.scalars(select(TurnVersion).where(
        TurnVersion.player_id == player_id, TurnVersion.round_id == round_id)
        .order_by(TurnVersion.id)).all()
    assert sorted(v.text for v in versions) == sorted(texts)
    assert Counter(v.channel for v in versions) == Counter(channels)
    assert {v.status for v in versions} == {"accepted"}
    newest = max(versions, key=lambda v: (v.received_at, v.id))
    change = parse_turn(newest.text).change
    player = db.session.get(Player, player_id)
    standing = turns.standing_turn(player.game.open_round, player)
    assert (standing.question, dict(standing.tips)) == (change.question, change.tips), \
        f"the version received last (#{newest.id}, {newest.channel}) does not stand"
    set_by = set(db.session.scalars(select(StandingTip.version_id).where(
        StandingTip.round_id == round_id, StandingTip.player_id == player_id)))
    set_by |= set(db.session.scalars(select(StandingQuestion.version_id).where(
        StandingQuestion.round_id == round_id, StandingQuestion.player_id == player_id)))
    assert set_by == {newest.id}
    assert {m.status for m in db.session.scalars(select(InboundMessage))} == (
        {"applied"} if "email" in channels else set())
    confirmation = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.player_id == player_id, OutboxMessage.kind == "confirmation")
        .order_by(OutboxMessage.id.desc()).limit(1)).one()
    assert format_turn(standing.question, standing.tips) in confirmation.body_text, \
        "the last confirmation echoes the turn standing"
