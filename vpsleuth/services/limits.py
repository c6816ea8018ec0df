"""Sliding-window limits counted in the database.

Every worker and process of the service shares the database, so a count kept
there holds across gunicorn workers and the embedded default alike, with no
store to run beside it. (Flask-Limiter was considered: its storages are
memory, which each worker keeps apart, or Redis, Memcached, MongoDB and etcd,
each one more server to run; none is SQL.) Keys are hashed: no address or
client IP is kept here in clear.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select

from ..extensions import db
from ..models import RateEvent, utcnow


def _key(key: str) -> str:
    return hashlib.sha256(key.strip().lower().encode()).hexdigest()


def count(bucket: str, key: str, window: timedelta, now: datetime | None = None) -> int:
    """How many events of ``bucket`` for ``key`` fell within the past ``window``."""
    now = now or utcnow()
    return db.session.scalar(select(func.count()).select_from(RateEvent).where(
        RateEvent.bucket == bucket, RateEvent.key == _key(key),
        RateEvent.created_at > now - window))


def record(bucket: str, key: str, now: datetime | None = None) -> None:
    """Count one event (added to the session; the caller commits)."""
    db.session.add(RateEvent(bucket=bucket, key=_key(key), created_at=now or utcnow()))


def forget_before(moment: datetime) -> int:
    """Delete events older than ``moment`` (no limit looks back that far); returns how many."""
    result = db.session.execute(delete(RateEvent).where(RateEvent.created_at < moment))
    db.session.commit()
    return result.rowcount
