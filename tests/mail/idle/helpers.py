"""Helpers for the IMAP watcher tests: replies of our own, folders, waiting for things."""

from __future__ import annotations

import imaplib
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from vpsleuth.mail import keys
from vpsleuth.models import OutboxMessage, Player

from ..support import Mailbox, outbox, round_mail

# The slow paths made slow: a reply handled within a test's wait was handled because the
# server told of it, not by a rescan.
SLOW = {"IMAP_IDLE_SECONDS": 600, "IMAP_POLL_SECONDS": 600}


def confirmations() -> list[OutboxMessage]:
    return outbox("confirmation")


def reply(player: Player, number: int, turn: str = "QUESTION A red\nTIP B BP2") -> bytes:
    """A plain reply to the player's round mail, with a Message-ID of its own."""
    msg = EmailMessage()
    msg["From"] = f"{player.name} <{player.email}>"
    msg["To"] = keys.reply_address(player)
    msg["Subject"] = "Re: " + round_mail(player).subject
    msg["Message-ID"] = f"<watch-{number}-{player.id}@example.org>"
    msg["In-Reply-To"] = round_mail(player).message_id
    msg.set_content(turn + "\n")
    return msg.as_bytes()


def wait_until(condition, what: str, seconds: float = 30, log: Path | None = None) -> None:
    """Wait for ``condition()`` to hold; fail, naming ``what`` (and showing ``log``, a
    process's output), after ``seconds``."""
    limit = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > limit:
            shown = f"; its log:\n{log.read_text()}" if log is not None else ""
            pytest.fail(f"gave up waiting {seconds:g} s for {what}{shown}")
        time.sleep(0.05)


def own_mailbox(app, server, name: str) -> Mailbox:
    """Point the app at a new folder of its own on ``server`` (a PrivateDovecot)."""
    app.config.update(IMAP_HOST=server.host, IMAP_PORT=server.port, IMAP_SSL=False,
                      IMAP_STARTTLS=False, IMAP_USER=server.user,
                      IMAP_PASSWORD=server.password, IMAP_FOLDER=name,
                      IMAP_DONE_FOLDER=f"{name}-done")
    mailbox = connect_mailbox(server, name)
    mailbox.conn.create(name)
    return mailbox


def connect_mailbox(server, name: str) -> Mailbox:
    """A connection of the test's own to the folder ``name`` on ``server``."""
    conn = imaplib.IMAP4(server.host, server.port)
    conn.login(server.user, server.password)
    return Mailbox(conn, name, f"{name}-done")
