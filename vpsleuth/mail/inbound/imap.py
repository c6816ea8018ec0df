"""IMAP: every message in IMAP_FOLDER goes through the pipeline, then moves.

A message is moved to IMAP_DONE_FOLDER only after it is stored in the database
(UID MOVE where the server has it, else UID COPY, then \\Deleted and EXPUNGE of
that message alone). A message that cannot be stored stays in the folder for
the next pass; nothing is ever deleted that was not stored first. If a move
fails after storing, the next pass stores the message again and the pipeline
drops it as a duplicate by its Message-ID.

One process at a time works on the mailbox (lease.py): a poll takes the lease
for its pass and does nothing while the IMAP watcher (watch.py) holds it.

The protocol is IMAPClient's (a maintained client library: TLS, STARTTLS, UID
commands, IDLE, folder-name encoding, parsed responses); this module says only
what we do with a message.
"""

from __future__ import annotations

import contextlib
import imaplib
import logging
import ssl
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from flask import Flask, current_app
from imapclient import IMAPClient
from imapclient.exceptions import LoginError
from sqlalchemy.exc import SQLAlchemyError

from .lease import MailboxLease, current_holder, new_holder
from .pipeline import receive
from .store import StoreError

log = logging.getLogger(__name__)
TIMEOUT = 60  # seconds for connecting and for each command
DELETED = rb"\Deleted"


class ImapError(Exception):
    """The IMAP server refused a command (login, select, move, ...) or dropped the connection."""


@dataclass
class PollResult:
    """What one pass did; ``left`` messages stay in the folder for the next pass."""

    configured: bool = True
    stored: list[int] = field(default_factory=list)  # InboundMessage ids
    moved: int = 0
    left: int = 0
    vanished: int = 0  # of ``left``: expunged by someone else meanwhile, no longer there
    errors: list[str] = field(default_factory=list)
    busy: str = ""  # the holder of the mailbox lease, when another process had it
    retry_soon: bool = False  # left because the database was away: try again shortly
    lost: bool = False  # another process took the mailbox over midway: the rest is its


@contextlib.contextmanager
def command(what: str) -> Iterator[None]:
    """Turn IMAPClient's errors (a NO or BAD, a dropped connection) into ImapError."""
    try:
        yield
    except imaplib.IMAP4.error as exc:  # IMAPClient's errors are imaplib's
        raise ImapError(f"{what}: {exc}") from exc


def poll_imap(app: Flask | None = None) -> PollResult:
    """One poll of the configured mailbox (the scheduler's job calls this with its app)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    with app.app_context():
        return poll_once()


def connect() -> IMAPClient:
    """A logged-in connection to the configured server."""
    cfg = current_app.config
    context = ssl.create_default_context()
    client = IMAPClient(cfg["IMAP_HOST"], port=int(cfg["IMAP_PORT"]),
                        ssl=bool(cfg.get("IMAP_SSL")), ssl_context=context, timeout=TIMEOUT)
    try:
        if not cfg.get("IMAP_SSL") and cfg.get("IMAP_STARTTLS"):
            with command("STARTTLS"):
                client.starttls(context)
        try:
            client.login(cfg["IMAP_USER"] or "", cfg["IMAP_PASSWORD"] or "")
        except LoginError as exc:
            raise ImapError(f"LOGIN refused: {exc}") from exc
        except imaplib.IMAP4.error as exc:
            raise ImapError(f"LOGIN: {exc}") from exc
    except BaseException:
        close(client)
        raise
    return client


def capabilities(client: IMAPClient) -> set[str]:
    """The server's capabilities as they are after login."""
    with command("CAPABILITY"):
        return {c.decode(errors="replace").upper() for c in client.capabilities()}


def open_folder(client: IMAPClient) -> int:
    """Make sure IMAP_DONE_FOLDER exists, then select IMAP_FOLDER; see select()."""
    ensure_folder(client, current_app.config["IMAP_DONE_FOLDER"])
    return select(client)


def select(client: IMAPClient) -> int:
    """Select IMAP_FOLDER (afresh); how many messages it holds now.

    The count is the server's as of the SELECT, and the session is told in IDLE of
    every message that comes after it. A SEARCH is not enough for that: it sees
    the messages the session already knew of, and tells of newer ones only in its
    answer's untagged EXISTS. A message that came just before a pass's SEARCH is
    then in neither that pass nor a later IDLE (Dovecot, tests/mail/idle).
    """
    folder = current_app.config["IMAP_FOLDER"]
    with command(f"SELECT {folder}"):
        return int(client.select_folder(folder)[b"EXISTS"])


def ensure_folder(client: IMAPClient, name: str) -> None:
    """Create the folder unless it exists."""
    with command(f"CREATE {name}"):
        if not client.folder_exists(name):
            client.create_folder(name)


def _fetch(client: IMAPClient, uid: int) -> bytes | None:
    with command(f"FETCH {uid}"):
        data = client.fetch([uid], ["BODY.PEEK[]"])
    return data.get(uid, {}).get(b"BODY[]")


def move(client: IMAPClient, uid: int, folder: str, caps: set[str]) -> None:
    """Move one message by UID: UID MOVE, else COPY + \\Deleted + EXPUNGE."""
    with command(f"MOVE {uid}"):
        if "MOVE" in caps:
            client.move([uid], folder)
            return
        client.copy([uid], folder)
        client.add_flags([uid], [DELETED], silent=True)
        if "UIDPLUS" in caps:
            client.uid_expunge([uid])
        else:
            client.expunge()


def process_folder(client: IMAPClient, caps: set[str],
                   keep: Callable[[], bool] | None = None) -> PollResult:
    """Store, process and move every message in the selected folder (in an app context).

    ``keep`` is asked before each message whether this process still holds the
    mailbox; when it says no, the rest is left to the process that does.
    """
    result = PollResult()
    with command("SEARCH"):
        uids = client.search("ALL")
    for i, uid in enumerate(uids):
        if keep is not None and not keep():
            result.left += len(uids) - i
            result.errors.append("another process took the mailbox over; the rest is its")
            result.lost = True
            break
        raw = _fetch(client, uid)
        if raw is None:  # expunged meanwhile, by someone else
            result.left += 1
            result.vanished += 1
            result.errors.append(f"UID {uid}: fetched nothing")
            continue
        try:
            received = receive(raw, "imap")
        except StoreError as exc:
            result.left += 1
            result.errors.append(f"UID {uid}: not stored: {exc}")
            if exc.temporary:  # the database is away: leave the rest for later
                result.left += len(uids) - i - 1
                result.retry_soon = True
                break
            continue
        result.stored.append(received.id)
        try:
            move(client, uid, current_app.config["IMAP_DONE_FOLDER"], caps)
        except ImapError as exc:  # stored: the next pass finds it a duplicate
            result.left += len(uids) - i
            result.errors.append(f"UID {uid}: stored but not moved: {exc}")
            break
        result.moved += 1
    return result


def poll_once() -> PollResult:
    """Poll once within an app context; see poll_imap().

    Does nothing while another process (the IMAP watcher) holds the mailbox.
    """
    cfg = current_app.config
    if not cfg.get("IMAP_HOST"):
        return PollResult(configured=False)
    lease = MailboxLease(new_holder("poll"), float(cfg.get("IMAP_LEASE_SECONDS") or 90))
    try:
        held = lease.claim()
    except SQLAlchemyError as exc:  # nothing can be stored: say what waits, touch nothing
        return _count_waiting(f"database unavailable: {exc.__class__.__name__}")
    if not held:
        return PollResult(busy=current_holder() or "another process")
    try:
        client = connect()
        try:
            caps = capabilities(client)
            open_folder(client)
            return process_folder(client, caps, lease.keep)
        finally:
            close(client)
    finally:
        lease.release()


def _count_waiting(error: str) -> PollResult:
    client = connect()
    try:
        open_folder(client)
        with command("SEARCH"):
            waiting = len(client.search("ALL"))
    finally:
        close(client)
    return PollResult(left=waiting, errors=[error], retry_soon=True)


def close(client: IMAPClient) -> None:
    """Log out (closing the folder first); a connection already gone is just shut."""
    try:
        with contextlib.suppress(imaplib.IMAP4.error):
            client.close_folder()
        client.logout()
    except (imaplib.IMAP4.error, OSError) as exc:
        log.debug("IMAP logout failed: %s", exc)
        with contextlib.suppress(Exception):
            client.shutdown()
