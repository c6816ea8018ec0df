"""A message that fails stays stored for the GM, who lists and reprocesses it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.exc import OperationalError

from vpsleuth.mail.inbound import ingest, pipeline, reply, reprocess
from vpsleuth.models import utcnow
from vpsleuth.rules import parse_question
from vpsleuth.services import turns
from vpsleuth.services.errors import NotFound, WrongState

from .support import corpus, inbound, outbox


@pytest.fixture
def broken_stripper(monkeypatch):
    """A bug in the reply stripper (put right by undoing the patch)."""
    def crash(text: str) -> str:
        raise RuntimeError("stripper bug")

    monkeypatch.setattr(reply, "strip_reply", crash)
    return monkeypatch


def test_a_crash_leaves_the_message_stored_as_failed_with_its_error(game, ada,
                                                                    broken_stripper):
    raw = corpus("gmail_reply.eml", ada)
    row = ingest(raw, "imap")
    assert (row.status, row.raw) == ("failed", raw)
    assert row.error == "RuntimeError: stripper bug"
    assert row.processed_at is not None
    assert outbox() == []
    assert turns.standing_turn(game.open_round, ada).is_empty


def test_a_failed_message_is_applied_when_reprocessed_after_the_fix(game, ada, broken_stripper):
    row = ingest(corpus("gmail_reply.eml", ada), "imap")
    broken_stripper.undo()
    again = reprocess(row.id)
    assert (again.id, again.status, again.error) == (row.id, "applied", "")
    assert turns.standing_turn(game.open_round, ada).question == parse_question("A red")
    assert [m.kind for m in outbox()] == ["confirmation"]


def test_a_message_stored_when_processing_cannot_finish_stays_received(game, ada,
                                                                      monkeypatch):
    from sqlalchemy.exc import OperationalError

    from vpsleuth.mail.inbound import pipeline

    def database_gone(row, now, **kwargs):
        raise OperationalError("SELECT", {}, Exception("server closed the connection"))

    monkeypatch.setattr(pipeline, "_run", database_gone)
    received = pipeline.receive(corpus("gmail_reply.eml", ada), "pipe")
    assert received.status == "received"
    assert f"vpsleuth mail reprocess {received.id}" in received.error
    monkeypatch.undo()
    assert reprocess(received.id).status == "applied"


def test_an_applied_message_is_not_reprocessed(game, ada):
    row = ingest(corpus("gmail_reply.eml", ada), "imap")
    with pytest.raises(WrongState, match="is applied"):
        reprocess(row.id)
    with pytest.raises(WrongState):
        reprocess(row.id, force=True)
    with pytest.raises(NotFound):
        reprocess(row.id + 100)


def test_forcing_an_ignored_message_skips_the_machine_mail_checks(game, ada):
    row = ingest(corpus("mailing_list.eml", ada), "imap")
    assert row.status == "ignored"
    with pytest.raises(WrongState, match="--force"):
        reprocess(row.id)
    assert reprocess(row.id, force=True).status == "applied"
    assert turns.standing_turn(game.open_round, ada).tips


def test_inbox_lists_recent_messages_with_status_and_error(runner, game, ada, broken_stripper):
    ingest(corpus("gmail_reply.eml", ada), "imap")
    ingest(corpus("vacation.eml", ada), "pipe")
    result = runner.invoke(args=["mail", "inbox"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "ignored" in lines[0] and "ben@example.org" in lines[0]
    assert "auto-reply" in lines[1]
    assert "failed" in lines[2] and "ada@example.org" in lines[2]
    assert "RuntimeError: stripper bug" in lines[3]
    only_failed = runner.invoke(args=["mail", "inbox", "--status", "failed"]).output
    assert "vacation" not in only_failed.lower() and "failed" in only_failed


def test_reprocess_command_runs_a_failed_message_again(runner, game, ada, broken_stripper):
    row = ingest(corpus("gmail_reply.eml", ada), "imap")
    broken_stripper.undo()
    result = runner.invoke(args=["mail", "reprocess", str(row.id)])
    assert result.exit_code == 0, result.output
    assert f"inbound message {row.id}: applied" in result.output
    assert [r.status for r in inbound()] == ["applied"]


def test_reprocess_command_explains_why_it_will_not(runner, game, ada):
    row = ingest(corpus("gmail_reply.eml", ada), "imap")
    result = runner.invoke(args=["mail", "reprocess", str(row.id)])
    assert result.exit_code == 1
    assert "is applied; only failed or unprocessed messages" in result.output


def test_a_message_left_received_is_processed_by_the_scheduler_once_and_not_too_soon(
        game, ada, monkeypatch):
    def database_gone(row, now, **kwargs):
        raise OperationalError("SELECT", {}, Exception("server closed the connection"))

    monkeypatch.setattr(pipeline, "_run", database_gone)
    received = pipeline.receive(corpus("gmail_reply.eml", ada), "smtp")  # the sender had 250
    monkeypatch.undo()
    now = utcnow()
    assert pipeline.process_left_over(now + timedelta(seconds=30)) == 0  # an entrance's own
    assert pipeline.process_left_over(now + pipeline.LEFT_OVER + timedelta(seconds=1)) == 1
    assert pipeline.process_left_over(now + timedelta(hours=1)) == 0  # never twice
    assert turns.standing_turn(game.open_round, ada).question == parse_question("A red")
    assert [m.kind for m in outbox()] == ["confirmation"]
    assert inbound()[-1].id == received.id and inbound()[-1].status == "applied"


def test_a_message_claimed_by_a_scheduler_that_died_is_claimed_again_after_a_while(
        game, ada, monkeypatch):
    def database_gone(row, now, **kwargs):
        raise OperationalError("SELECT", {}, Exception("server closed the connection"))

    monkeypatch.setattr(pipeline, "_run", database_gone)
    received = pipeline.receive(corpus("gmail_reply.eml", ada), "smtp")
    now = utcnow() + pipeline.LEFT_OVER + timedelta(seconds=1)
    # A scheduler claims it and dies before processing it (here: its processing does
    # nothing), so the message stays "received", claimed.
    monkeypatch.setattr(pipeline, "process", lambda row_id, now: None)
    assert pipeline.process_left_over(now) == 1
    monkeypatch.undo()
    assert inbound()[-1].status == "received"
    assert pipeline.process_left_over(now + pipeline.STALE_CLAIM / 2) == 0  # still its claim
    assert pipeline.process_left_over(now + pipeline.STALE_CLAIM + timedelta(seconds=1)) == 1
    assert inbound()[-1].id == received.id and inbound()[-1].status == "applied"
    assert [m.kind for m in outbox()] == ["confirmation"]
