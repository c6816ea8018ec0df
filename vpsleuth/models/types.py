"""Column types shared by the models."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, LargeBinary
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator):
    """An aware UTC datetime on every engine (SQLite forgets time zones).

    Stored as naive UTC, returned as aware UTC; naive input is refused so that
    a local time can never slip in unnoticed.
    """

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: store aware UTC times only")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


def utcnow() -> datetime:
    """Return the current time as an aware UTC datetime."""
    return datetime.now(UTC)


class VerbatimText(TypeDecorator):
    """Text kept exactly as received, NUL bytes and lone surrogates included.

    PostgreSQL text cannot hold NUL, so the text is stored as UTF-8 bytes
    (surrogatepass) and decoded back to the identical string.
    """

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect) -> bytes | None:
        return None if value is None else value.encode("utf-8", "surrogatepass")

    def process_result_value(self, value: bytes | None, dialect) -> str | None:
        return None if value is None else bytes(value).decode("utf-8", "surrogatepass")
