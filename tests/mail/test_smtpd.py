"""The SMTP receiver: real SMTP (aiosmtpd) delivered to with smtplib."""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess

import pytest

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.mail.inbound.smtpd import controller

from .support import corpus, free_port, inbound, outbox, wait_for_port
from .test_ingest_command import UNREACHABLE, VPSLEUTH


def deliver(port: int, raw: bytes, mail_from: str, to: list[str]) -> dict:
    """Send ``raw`` (CRLF line ends, as SMTP wants them) to the receiver."""
    db.session.commit()  # end our transaction: SQLite lets the receiver write
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        return smtp.sendmail(mail_from, to, crlf(raw))


def crlf(raw: bytes) -> bytes:
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def test_a_reply_delivered_by_smtp_is_stored_with_its_envelope_and_applied(game, ada,
                                                                          smtp_port):
    raw = corpus("gmail_reply.eml", ada)
    refused = deliver(smtp_port, raw, "ada@example.org", ["vpsleuth@localhost"])
    assert refused == {}
    [row] = inbound()
    assert (row.source, row.status) == ("smtp", "applied")
    assert row.raw.startswith(b"Return-Path: <ada@example.org>\r\n"
                              b"Delivered-To: vpsleuth@localhost\r\n")
    assert row.raw.endswith(crlf(raw))
    assert [m.kind for m in outbox()] == ["confirmation"]


def test_the_key_in_the_envelope_recipient_is_found_when_the_headers_lack_it(game, ada,
                                                                            smtp_port):
    from vpsleuth.mail import keys

    raw = corpus("signature_dash.eml", ada).replace(keys.reply_address(ada).encode(),
                                                    b"vpsleuth@localhost")
    deliver(smtp_port, raw, "ada@example.org", [keys.reply_address(ada)])
    [row] = inbound()
    assert (row.status, row.player_id) == ("applied", ada.id)


def test_a_bounce_with_an_empty_envelope_sender_is_ignored(game, ben, smtp_port):
    raw = corpus("bounce.eml", ben).replace(b"Return-Path: <>\n", b"")
    deliver(smtp_port, raw, "", ["vpsleuth@localhost"])
    [row] = inbound()
    assert (row.status, row.error) == ("ignored", "bounce (empty Return-Path)")
    assert outbox() == []


def test_an_unreachable_database_answers_451_so_the_sender_retries(app, game, ada):
    down = create_app({"SQLALCHEMY_DATABASE_URI": UNREACHABLE})
    port = free_port()
    server = controller(down, "127.0.0.1", port)
    server.start()
    try:
        with pytest.raises(smtplib.SMTPDataError) as refused:
            deliver(port, corpus("gmail_reply.eml", ada), "ada@example.org",
                    ["vpsleuth@localhost"])
    finally:
        server.stop()
    assert refused.value.smtp_code == 451
    assert inbound() == []


def test_the_smtpd_command_receives_until_it_is_terminated(app, game, ada):
    port = free_port()
    db.session.commit()
    env = dict(os.environ, VPSLEUTH_SQLALCHEMY_DATABASE_URI=app.config["SQLALCHEMY_DATABASE_URI"],
               VPSLEUTH_SECRET_KEY=app.config["SECRET_KEY"])
    proc = subprocess.Popen([VPSLEUTH, "mail", "smtpd", "--host", "127.0.0.1", "--port",
                             str(port)], env=env, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, 60)
        deliver(port, corpus("gmail_reply.eml", ada), "ada@example.org", ["vpsleuth@localhost"])
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err.decode()
    assert "Stopped." in err.decode()
    assert [(r.source, r.status) for r in inbound()] == [("smtp", "applied")]
