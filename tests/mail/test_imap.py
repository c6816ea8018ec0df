"""IMAP polling against a real Dovecot: store first, then move; never lose a message."""

from __future__ import annotations

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.mail.inbound import imap, poll_imap
from vpsleuth.rules import parse_question
from vpsleuth.services import turns

from .support import corpus, inbound, outbox
from .test_ingest_command import UNREACHABLE


def test_a_poll_stores_applies_and_moves_every_message(app, game, ada, ben, mailbox):
    mailbox.append(corpus("gmail_reply.eml", ada))
    mailbox.append(corpus("outlook_de.eml", ben))
    mailbox.append(corpus("vacation.eml", ben))
    result = poll_imap(app)
    assert (len(result.stored), result.moved, result.left, result.errors) == (3, 3, 0, [])
    assert [(r.source, r.status) for r in inbound()] == [
        ("imap", "applied"), ("imap", "applied"), ("imap", "ignored")]
    assert mailbox.messages(mailbox.folder) == []
    assert len(mailbox.messages(mailbox.done)) == 3
    assert turns.standing_turn(game.open_round, ada).question == parse_question("A red")
    assert [m.kind for m in outbox()] == ["confirmation", "confirmation"]


def test_the_done_folder_is_created_when_missing(app, game, mailbox):
    typ, listed = mailbox.conn.list('""', mailbox.done)
    assert listed == [None]
    assert poll_imap(app).stored == []
    typ, listed = mailbox.conn.list('""', mailbox.done)
    assert typ == "OK" and listed != [None]


def test_without_move_messages_are_copied_flagged_and_expunged(app, game, ada, mailbox,
                                                               monkeypatch):
    real = imap.capabilities
    monkeypatch.setattr(imap, "capabilities", lambda conn: real(conn) - {"MOVE"})
    mailbox.append(corpus("gmail_reply.eml", ada))
    mailbox.append(corpus("missing_key.eml"))
    assert poll_imap(app).moved == 2
    assert mailbox.messages(mailbox.folder) == []
    assert len(mailbox.messages(mailbox.done)) == 2


def test_without_uidplus_a_plain_expunge_is_used(app, game, ada, mailbox, monkeypatch):
    real = imap.capabilities
    monkeypatch.setattr(imap, "capabilities", lambda conn: real(conn) - {"MOVE", "UIDPLUS"})
    mailbox.append(corpus("gmail_reply.eml", ada))
    assert poll_imap(app).moved == 1
    assert mailbox.messages(mailbox.folder) == []
    assert len(mailbox.messages(mailbox.done)) == 1


def test_messages_that_cannot_be_stored_stay_in_the_folder_for_the_next_poll(app, game, ada,
                                                                            mailbox):
    raw = corpus("gmail_reply.eml", ada)
    mailbox.append(raw)
    mailbox.append(corpus("missing_key.eml"))
    down = create_app({"SQLALCHEMY_DATABASE_URI": UNREACHABLE})
    down.config.update({k: v for k, v in app.config.items() if k.startswith("IMAP_")})
    result = poll_imap(down)
    assert (result.stored, result.moved, result.left) == ([], 0, 2)
    assert "database unavailable" in result.errors[0]
    assert len(mailbox.messages(mailbox.folder)) == 2
    assert mailbox.messages(mailbox.done) == []
    db.session.commit()
    result = poll_imap(app)
    assert (len(result.stored), result.left) == (2, 0)
    assert mailbox.messages(mailbox.folder) == []
    assert [r.status for r in inbound()] == ["applied", "refused"]
    assert inbound()[0].raw == raw.replace(b"\n", b"\r\n")


def test_a_message_polled_twice_is_a_duplicate_and_still_moved(app, game, ada, mailbox):
    raw = corpus("gmail_reply.eml", ada)
    mailbox.append(raw)
    mailbox.append(raw)
    assert poll_imap(app).moved == 2
    assert [r.status for r in inbound()] == ["applied", "duplicate"]
    assert [m.kind for m in outbox()] == ["confirmation"]


def test_polling_without_an_imap_host_does_nothing(app):
    app.config["IMAP_HOST"] = None
    assert poll_imap(app).configured is False


def test_the_poll_command_reports_what_it_did(app, runner, game, ada, mailbox):
    mailbox.append(corpus("gmail_reply.eml", ada))
    result = runner.invoke(args=["mail", "poll"])
    assert result.exit_code == 0, result.output
    assert "stored 1, moved 1, left 0" in result.output


def test_the_poll_command_says_when_imap_is_not_configured(app, runner):
    app.config["IMAP_HOST"] = None
    result = runner.invoke(args=["mail", "poll"])
    assert result.exit_code == 1
    assert "IMAP_HOST is not set" in result.output


def test_a_wrong_password_is_a_clear_error(app, runner, game, mailbox):
    app.config["IMAP_PASSWORD"] = "wrong"
    result = runner.invoke(args=["mail", "poll"])
    assert result.exit_code == 1
    assert "LOGIN refused" in result.output
