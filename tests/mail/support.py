"""Helpers for the inbound mail tests: corpus messages, queued mail, ports, IMAP folders."""

from __future__ import annotations

import imaplib
import socket
import time
from pathlib import Path

from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.models import InboundMessage, OutboxMessage, Player

CORPUS = Path(__file__).parent / "corpus"


def round_mail(player: Player) -> OutboxMessage:
    """The round mail the player is replying to."""
    return db.session.scalar(select(OutboxMessage).where(
        OutboxMessage.player_id == player.id, OutboxMessage.kind == "round_opened")
        .order_by(OutboxMessage.id.desc()).limit(1))


def corpus(name: str, player: Player | None = None, **extra: str) -> bytes:
    """A corpus message with its placeholders filled in for this player."""
    raw = (CORPUS / name).read_bytes()
    values = dict(extra)
    if player is not None:
        values.setdefault("TO", keys.reply_address(player))
        values.setdefault("IN_REPLY_TO", round_mail(player).message_id.strip("<>"))
    values.setdefault("IN_REPLY_TO", "unknown@example.org")
    for key, value in values.items():
        raw = raw.replace(f"@@{key}@@".encode(), value.encode())
    return raw


def outbox(kind: str | None = None, after: int = 0) -> list[OutboxMessage]:
    """Mails queued after outbox row ``after``, without the game's invitations and round mails."""
    query = select(OutboxMessage).where(
        OutboxMessage.id > after, OutboxMessage.kind.not_in(("invitation", "round_opened"))
    ).order_by(OutboxMessage.id)
    if kind:
        query = query.where(OutboxMessage.kind == kind)
    return list(db.session.scalars(query))


def outbox_mark() -> int:
    """The id of the last queued mail, to look only at what comes after it."""
    return db.session.scalar(select(func.max(OutboxMessage.id))) or 0


def inbound() -> list[InboundMessage]:
    db.session.expire_all()
    return list(db.session.scalars(select(InboundMessage).order_by(InboundMessage.id)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


class Mailbox:
    """The test's view of the IMAP folders: put messages in, look what is where."""

    def __init__(self, conn: imaplib.IMAP4, folder: str, done: str):
        self.conn, self.folder, self.done = conn, folder, done

    def append(self, raw: bytes) -> None:
        typ, _ = self.conn.append(self.folder, None, None, raw)
        assert typ == "OK"

    def messages(self, folder: str) -> list[bytes]:
        typ, _ = self.conn.select(folder, readonly=True)
        if typ != "OK":
            return []
        _, data = self.conn.uid("SEARCH", None, "ALL")
        found = []
        for uid in (data[0] or b"").split():
            _, parts = self.conn.uid("FETCH", uid, "(BODY.PEEK[])")
            found += [p[1] for p in parts if isinstance(p, tuple)]
        self.conn.close()
        return found
