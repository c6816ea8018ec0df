"""A mail whose parts nest too deep is stored, refused and answered: never a RecursionError.

A multipart inside a multipart, 1,000 levels down, made the stdlib's recursive
parser raise RecursionError: the message was stored as failed and nobody was told.
"""

from __future__ import annotations

import logging
import time

import pytest

from vpsleuth.mail import keys, mime
from vpsleuth.services import turns

from .support import inbound, outbox
from .test_ingest_command import run_ingest
from .test_smtpd import deliver


def nested(levels: int, to: str, turn: str = "TIP A RD1") -> bytes:
    """A mail of ``levels`` multiparts each inside the last, the turn in the innermost."""
    head = (f"From: Ada <ada@example.org>\nTo: {to}\nSubject: Re: Round 1\n"
            f"Message-ID: <deep{levels}@example.org>\nMIME-Version: 1.0\n")
    opening = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\n\n--b{i}\n'
                      for i in range(levels))
    closing = "".join(f"\n--b{i}--\n" for i in reversed(range(levels)))
    return (head + opening + f"Content-Type: text/plain\n\n{turn}\n" + closing).encode()


@pytest.fixture
def no_errors_logged(caplog):
    caplog.set_level(logging.WARNING)
    yield
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def test_parts_nested_up_to_the_limit_are_read():
    # The root message and 19 multiparts in it: 20 levels, the text in the innermost.
    msg = mime.parse(nested(mime.MAX_DEPTH - 1, "x@example.org"))
    assert mime.body_text(msg).strip() == "TIP A RD1"


@pytest.mark.parametrize("levels", [mime.MAX_DEPTH, 1000, 20000])
def test_parts_nested_deeper_raise_too_deep_at_once(levels):
    started = time.monotonic()
    with pytest.raises(mime.TooDeep, match="more than 20 levels deep"):
        mime.parse(nested(levels, "x@example.org"))
    assert time.monotonic() - started < 1


def test_a_reply_nested_1000_levels_deep_is_refused_and_the_player_told(
        app, game, ada, smtp_port, no_errors_logged):
    before = turns.standing_turn(game.open_round, ada)
    raw = nested(1000, keys.reply_address(ada))
    deliver(smtp_port, raw, "ada@example.org", [keys.reply_address(ada)])
    [row] = inbound()
    assert row.raw.endswith(raw.replace(b"\n", b"\r\n")), "stored whole, as it came"
    assert (row.status, row.player_id) == ("refused", ada.id)
    assert row.error == ("the mail's parts nest more than 20 levels deep; answered the "
                         "player")
    [reply] = outbox()
    assert (reply.kind, reply.to_addr) == ("refused", "ada@example.org")
    assert "parts inside parts more than 20 levels deep" in reply.body_text
    assert turns.standing_turn(game.open_round, ada) == before


def test_a_german_player_is_told_in_german_through_the_mta_pipe(app, game, ben):
    done = run_ingest(app, nested(1000, keys.reply_address(ben)))
    assert done.returncode == 0
    assert "Traceback" not in done.stderr.decode()
    assert [r.status for r in inbound()] == ["refused"]
    [reply] = outbox()
    assert reply.to_addr == "ben@example.org"
    assert "mehr als 20 Ebenen ineinander verschachtelter Teile" in reply.body_text


def test_a_deep_mail_without_a_reply_key_gets_the_usual_refusal(app, game, smtp_port,
                                                               no_errors_logged):
    deliver(smtp_port, nested(1000, "vpsleuth@localhost"), "ada@example.org",
            ["vpsleuth@localhost"])
    [row] = inbound()
    assert row.status == "refused"
    assert row.error.startswith("the address you wrote to carries no player key")
    assert [m.kind for m in outbox()] == ["not_understood"]


def test_a_reply_nested_within_the_limit_is_applied(app, game, ada, smtp_port,
                                                    no_errors_logged):
    deliver(smtp_port, nested(mime.MAX_DEPTH - 1, keys.reply_address(ada), "TIP B RD2"),
            "ada@example.org", [keys.reply_address(ada)])
    assert [r.status for r in inbound()] == ["applied"]
    assert [m.kind for m in outbox()] == ["confirmation"]
