"""IMAP polling: every message in IMAP_FOLDER goes through the pipeline, then moves.

A message is moved to IMAP_DONE_FOLDER only after it is stored in the database
(UID MOVE where the server has it, else UID COPY, then \\Deleted and EXPUNGE of
that message alone). A message that cannot be stored stays in the folder for
the next poll; nothing is ever deleted that was not stored first. If a move
fails after storing, the next poll stores the message again and the pipeline
drops it as a duplicate by its Message-ID.
"""

from __future__ import annotations

import imaplib
import logging
import re
import ssl
from dataclasses import dataclass, field

from flask import Flask, current_app

from .pipeline import receive
from .store import StoreError

log = logging.getLogger(__name__)
TIMEOUT = 60  # seconds for connecting and for each command


class ImapError(Exception):
    """The IMAP server refused a command (login, select, move, ...)."""


@dataclass
class PollResult:
    """What one poll did; ``left`` messages stay in the folder for the next poll."""

    configured: bool = True
    stored: list[int] = field(default_factory=list)  # InboundMessage ids
    moved: int = 0
    left: int = 0
    errors: list[str] = field(default_factory=list)


def poll_imap(app: Flask | None = None) -> PollResult:
    """One poll of the configured mailbox (the scheduler's job calls this with its app)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    with app.app_context():
        return poll_once()


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ok(response: tuple[str, list], what: str) -> list:
    typ, data = response
    if typ != "OK":
        detail = b" ".join(d for d in data if isinstance(d, bytes)).decode(errors="replace")
        raise ImapError(f"{what}: {typ} {detail}".strip())
    return data


def connect() -> imaplib.IMAP4:
    """A logged-in connection to the configured server."""
    cfg = current_app.config
    host, port = cfg["IMAP_HOST"], int(cfg["IMAP_PORT"])
    context = ssl.create_default_context()
    if cfg.get("IMAP_SSL"):
        conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(host, port, ssl_context=context,
                                                timeout=TIMEOUT)
    else:
        conn = imaplib.IMAP4(host, port, timeout=TIMEOUT)
        if cfg.get("IMAP_STARTTLS"):
            _ok(conn.starttls(ssl_context=context), "STARTTLS")
    try:
        _ok(conn.login(cfg["IMAP_USER"] or "", cfg["IMAP_PASSWORD"] or ""), "LOGIN")
    except imaplib.IMAP4.error as exc:
        conn.logout()
        raise ImapError(f"LOGIN refused: {exc}") from exc
    return conn


def capabilities(conn: imaplib.IMAP4) -> set[str]:
    """The server's capabilities as they are after login."""
    data = _ok(conn.capability(), "CAPABILITY")
    words = b" ".join(d for d in data if isinstance(d, bytes)).decode(errors="replace")
    return {w.upper() for w in words.split()}


def ensure_folder(conn: imaplib.IMAP4, name: str) -> None:
    """Create the folder unless it exists."""
    listed = _ok(conn.list('""', _quote(name)), "LIST")
    if any(item for item in listed if item):
        return
    _ok(conn.create(_quote(name)), f"CREATE {name}")


def _fetch(conn: imaplib.IMAP4, uid: bytes) -> bytes | None:
    data = _ok(conn.uid("FETCH", uid, "(BODY.PEEK[])"), f"FETCH {uid.decode()}")
    for item in data:
        if isinstance(item, tuple) and len(item) == 2:
            return item[1]
    return None


def move(conn: imaplib.IMAP4, uid: bytes, folder: str, caps: set[str]) -> None:
    """Move one message by UID: UID MOVE, else COPY + \\Deleted + EXPUNGE."""
    if "MOVE" in caps:
        _ok(conn.uid("MOVE", uid, _quote(folder)), "MOVE")
        return
    _ok(conn.uid("COPY", uid, _quote(folder)), "COPY")
    _ok(conn.uid("STORE", uid, "+FLAGS.SILENT", r"(\Deleted)"), "STORE \\Deleted")
    if "UIDPLUS" in caps:
        _ok(conn.uid("EXPUNGE", uid), "UID EXPUNGE")
    else:
        _ok(conn.expunge(), "EXPUNGE")


_UIDS = re.compile(rb"\d+")


def poll_once() -> PollResult:
    """Poll once within an app context; see poll_imap()."""
    cfg = current_app.config
    if not cfg.get("IMAP_HOST"):
        return PollResult(configured=False)
    result = PollResult()
    conn = connect()
    try:
        caps = capabilities(conn)
        ensure_folder(conn, cfg["IMAP_DONE_FOLDER"])
        _ok(conn.select(_quote(cfg["IMAP_FOLDER"])), f"SELECT {cfg['IMAP_FOLDER']}")
        found = _ok(conn.uid("SEARCH", None, "ALL"), "SEARCH")
        uids = _UIDS.findall(found[0] or b"") if found else []
        for i, uid in enumerate(uids):
            raw = _fetch(conn, uid)
            if raw is None:
                result.left += 1
                result.errors.append(f"UID {uid.decode()}: fetched nothing")
                continue
            try:
                received = receive(raw, "imap")
            except StoreError as exc:
                result.left += 1
                result.errors.append(f"UID {uid.decode()}: not stored: {exc}")
                if exc.temporary:  # the database is away: leave the rest for later
                    result.left += len(uids) - i - 1
                    break
                continue
            result.stored.append(received.id)
            try:
                move(conn, uid, cfg["IMAP_DONE_FOLDER"], caps)
            except ImapError as exc:  # stored: the next poll finds it a duplicate
                result.left += len(uids) - i
                result.errors.append(f"UID {uid.decode()}: stored but not moved: {exc}")
                break
            result.moved += 1
    finally:
        _logout(conn)
    return result


def _logout(conn: imaplib.IMAP4) -> None:
    try:
        if conn.state == "SELECTED":
            conn.close()
        conn.logout()
    except (imaplib.IMAP4.error, OSError) as exc:
        log.warning("IMAP logout failed: %s", exc)
