"""``vpsleuth mail outbox`` and ``vpsleuth mail send``: how a GM reads and sends mail."""

from __future__ import annotations

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail.keys import reply_address
from vpsleuth.models import OutboxMessage


def outbox_rows() -> list[OutboxMessage]:
    db.session.expire_all()
    return list(db.session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def test_the_outbox_lists_the_newest_mails_first_with_their_state(app, runner, new_game):
    new_game(start=False)
    result = runner.invoke(args=["mail", "outbox"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    ids = [r.id for r in outbox_rows()]
    assert [int(line.split()[0]) for line in lines[:3]] == ids[::-1]
    assert "pending" in lines[0] and "cyd@example.org" in lines[0] and "invitation" in lines[0]


def test_the_outbox_filters_by_state_and_says_when_nothing_matches(app, runner, new_game):
    new_game(start=False)
    assert runner.invoke(args=["mail", "outbox", "--status", "sent"]).output == "No sent mail.\n"
    result = runner.invoke(args=["mail", "outbox", "--status", "pending", "--limit", "1"])
    assert len(result.output.splitlines()) == 1
    result = runner.invoke(args=["mail", "outbox", "--status", "lost"])
    assert result.exit_code == 2 and "'lost' is not one of" in result.output


def test_show_prints_one_mail_in_full_with_its_headers(app, runner, new_game):
    game = new_game(start=False)
    ada = game.players[0]
    row = outbox_rows()[0]
    result = runner.invoke(args=["mail", "outbox", "--show", str(row.id)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"To: ada@example.org\nSubject: {row.subject}\n")
    assert f"Message-ID: {row.message_id}" in result.output
    assert f"Reply-To: {reply_address(ada)}" in result.output
    assert "Status: pending (attempts: 0" in result.output
    assert row.body_text.strip() in result.output


def test_show_of_an_unknown_mail_says_so(app, runner):
    result = runner.invoke(args=["mail", "outbox", "--show", "999"])
    assert result.exit_code == 1
    assert "no mail 999 in the outbox" in result.output


def test_send_sends_what_is_due_and_says_how_much(app, runner, sink, new_game):
    new_game(start=False)
    result = runner.invoke(args=["mail", "send"])
    assert result.exit_code == 0, result.output
    assert result.output == "Sent 3 mails; 0 waiting.\n"
    assert len(sink.messages) == 3
    listing = runner.invoke(args=["mail", "outbox", "--status", "sent"]).output
    assert len(listing.splitlines()) == 3


def test_send_with_the_server_down_fails_plainly_and_keeps_the_mail(app, runner, sink, new_game):
    new_game(start=False)
    sink.stop()
    result = runner.invoke(args=["mail", "send"])
    assert result.exit_code == 1
    assert "Sent 0 mails; 3 waiting." in result.output
    assert "nothing could be sent (SMTP unavailable" in result.output
    assert {(r.status, r.attempts) for r in outbox_rows()} == {("pending", 1)}
    sink.start()
    assert runner.invoke(args=["mail", "send"]).output == "Sent 0 mails; 3 waiting.\n"
    assert runner.invoke(args=["mail", "send", "--retry"]).output == "Sent 3 mails; 0 waiting.\n"
    assert len(set(sink.message_ids())) == 3


def test_send_retry_failed_gives_failed_mail_another_try(app, runner, sink, new_game):
    app.config["OUTBOX_MAX_ATTEMPTS"] = 1
    new_game(players=("Ada",), start=False)
    sink.stop()
    runner.invoke(args=["mail", "send"])
    assert [r.status for r in outbox_rows()] == ["failed"]
    sink.start()
    assert runner.invoke(args=["mail", "send", "--retry"]).output == "Sent 0 mails; 0 waiting.\n"
    result = runner.invoke(args=["mail", "send", "--retry-failed"])
    assert result.output == "Sent 1 mail; 0 waiting.\n"
    assert [r.status for r in outbox_rows()] == ["sent"]


def test_send_without_a_mail_server_points_to_the_outbox(app, runner, new_game):
    app.config["MAIL_SERVER"] = None
    new_game(start=False)
    result = runner.invoke(args=["mail", "send"])
    assert result.exit_code == 1
    assert "no MAIL_SERVER is configured" in result.output
    assert "No MAIL_SERVER is configured" in runner.invoke(args=["mail", "outbox"]).output
