"""Step one of the pipeline: the raw message is committed before anything else.

Whatever happens later, the message is in the database for the GM to see and
reprocess. A message larger than INBOUND_MAX_BYTES keeps its first bytes (the
headers come first) and a note saying how much was cut.
"""

from __future__ import annotations

import contextlib
from datetime import datetime

from flask import current_app
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, SQLAlchemyError

from ...extensions import commit_keeping_loaded, db
from ...models import InboundMessage, utcnow
from .. import mime

SOURCES = ("imap", "pipe", "smtp")
TOO_LARGE = "too large:"


class StoreError(Exception):
    """The message could not be stored; ``temporary`` says whether a retry may work."""

    def __init__(self, message: str, temporary: bool):
        super().__init__(message)
        self.temporary = temporary


def _summary(raw: bytes) -> tuple[str | None, str, str]:
    """(Message-ID, From address, Subject); blanks for anything unreadable."""
    try:
        msg = mime.parse_headers(raw)
        return (mime.message_id(msg), mime.clean(mime.sender(msg), 998),
                mime.clean(mime.header(msg, "Subject"), 2000))
    except Exception:  # a summary is a convenience: never let it stop the storing
        return None, "", ""


def store(raw: bytes, source: str, *, now: datetime | None = None) -> int:
    """Commit ``raw`` as an InboundMessage (status "received"); returns its id.

    Raises StoreError: temporary when the database cannot be reached (an MTA
    should retry), permanent when the database refuses this input.
    """
    return stored_row(raw, source, now=now).id


def stored_row(raw: bytes, source: str, *, now: datetime | None = None) -> InboundMessage:
    """store(), returning the row itself, still loaded: for the pipeline to go on with."""
    if source not in SOURCES:
        raise ValueError(f"source must be one of {', '.join(SOURCES)}")
    if not isinstance(raw, bytes | bytearray | memoryview):
        raise StoreError("a message must be bytes", temporary=False)
    raw = bytes(raw)
    if not raw:
        raise StoreError("empty message: nothing to store", temporary=False)
    limit = int(current_app.config["INBOUND_MAX_BYTES"])
    note = ""
    if len(raw) > limit:
        note = (f"{TOO_LARGE} {len(raw)} bytes, at most {limit} are accepted; only the "
                f"first {limit} bytes are stored")
        raw = raw[:limit]
    message_id, from_addr, subject = _summary(raw)
    row = InboundMessage(source=source, raw=raw, message_id=message_id, from_addr=from_addr,
                         subject=subject, received_at=now or utcnow(), status="received",
                         error=note)
    try:
        db.session.add(row)
        commit_keeping_loaded()  # the pipeline goes on with the row: no reload of the raw bytes
    except (OperationalError, InterfaceError) as exc:
        _rollback()
        raise StoreError(f"database unavailable: {_first_line(exc)}", temporary=True) from exc
    except (DBAPIError, SQLAlchemyError) as exc:
        _rollback()
        raise StoreError(f"could not store the message: {_first_line(exc)}",
                         temporary=False) from exc
    return row


def _rollback() -> None:
    with contextlib.suppress(SQLAlchemyError):  # a dead connection: reset all the same
        db.session.rollback()


def _first_line(exc: Exception) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.strip().split("\n")[0][:300]
