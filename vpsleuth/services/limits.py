"""Sliding-window limits counted in the database.

Every worker and process of the service shares the database, so a count kept
there holds across gunicorn workers and the embedded default alike, with no
store to run beside it. (Flask-Limiter was considered: its storages are
memory, which each worker keeps apart, or Redis, Memcached, MongoDB and etcd,
each one more server to run; none is SQL.) Keys are keyed hashes (HMAC-SHA256):
no address or client IP is kept here in clear, and none can be recovered by
hashing every candidate (all 2^32 IPv4 addresses take minutes), since that
takes the key, which is not in the database (see _key).
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta
from functools import cache

from flask import current_app
from sqlalchemy import delete, func, select

from ..extensions import db
from ..models import RateEvent, utcnow

KEY_PURPOSE = b"vpsleuth rate_event keys"


@cache
def _hashing_key(secret: str) -> bytes:
    """The HMAC key of rate_event rows: derived from SECRET_KEY under a label of its own.

    Derived, not stored: a key kept in the database would be copied with every
    dump of rate_event it is meant to protect, and SECRET_KEY is the one secret
    the service keeps anyway (sign-in links, feeds and reply keys hang on it).
    The label keeps this use apart from those. A changed SECRET_KEY starts every
    count afresh; the old rows match nothing and go with the forget-old job.
    """
    return hmac.new(secret.encode(), KEY_PURPOSE, hashlib.sha256).digest()


def _key(key: str) -> str:
    secret = _hashing_key(current_app.config["SECRET_KEY"])
    return hmac.new(secret, key.strip().lower().encode(), hashlib.sha256).hexdigest()


def key_of(key: str) -> str:
    """The stored form of ``key`` (an address, a client): to find its rows, never to read it."""
    return _key(key)


def forget_key(key: str) -> int:
    """Delete every counted event of ``key`` (a person who leaves); the caller commits."""
    return db.session.execute(delete(RateEvent).where(RateEvent.key == _key(key))).rowcount


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
