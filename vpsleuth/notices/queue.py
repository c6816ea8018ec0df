"""The durable queue of push and webhook notices: stored first, sent by the scheduler.

``add()`` only adds a row to the session; the caller's commit (the service's own
transaction) makes the notice durable with its cause, and nothing is sent there.
``send_due()`` claims due rows a batch at a time with one conditional UPDATE, so any
number of senders never send a row twice, and hands each to its channel's sender, which
says what became of it: sent, try again later (back-off 1 min, 2, 4, ... 6 h) or
drop (the push service says the subscription is gone). A sender that died
mid-send leaves 'sending'; such rows are given back after STALE_CLAIM.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import ColumnElement, and_, or_, select, update

from ..extensions import db
from ..models import Notice, utcnow
from ..services import claims

log = logging.getLogger(__name__)
MAX_BACKOFF = timedelta(hours=6)
STALE_CLAIM = timedelta(minutes=10)
STATUSES = ("pending", "sending", "sent", "failed", "dropped")
# Notices claimed at once: one commit claims them, one per notice stores its outcome
# (the outcome's commit is what keeps a notice from being handed over twice).
CLAIM_BATCH = 50


@dataclass(frozen=True)
class Outcome:
    """What a channel's sender made of one notice: ``sent``, ``retry`` or ``drop``."""

    what: str
    detail: str = ""

    @classmethod
    def sent(cls, detail: str = "") -> Outcome:
        return cls("sent", detail)

    @classmethod
    def retry(cls, detail: str) -> Outcome:
        return cls("retry", detail)

    @classmethod
    def drop(cls, detail: str) -> Outcome:
        return cls("drop", detail)


Sender = Callable[[Notice], Outcome]


def add(channel: str, kind: str, payload: Mapping, *, game_id: int | None = None,
        player_id: int | None = None, subscription_id: int | None = None,
        webhook_id: int | None = None, topic: str | None = None) -> Notice:
    """Queue one notice in the caller's transaction (never commits, never sends)."""
    notice = Notice(channel=channel, kind=kind, payload=json.dumps(payload, ensure_ascii=False),
                    game_id=game_id, player_id=player_id, subscription_id=subscription_id,
                    webhook_id=webhook_id, topic=topic, status="pending", attempts=0,
                    last_error="")
    db.session.add(notice)
    return notice


def is_due(now: datetime) -> ColumnElement[bool]:
    """Pending, and never tried or its back-off over (a new notice is due at once,
    whatever the clocks of the processes that queue and send it say)."""
    return and_(Notice.status == "pending",
                or_(Notice.attempts == 0, Notice.next_attempt_at <= now))


def backoff(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failure: 1 min, 2, 4, ... at most 6 h."""
    return min(timedelta(minutes=2 ** min(attempts - 1, 20)), MAX_BACKOFF)


def release_stale_claims(now: datetime) -> int:
    """Give back the rows a sender claimed and never finished (it died mid-send)."""
    done = db.session.execute(
        update(Notice).where(Notice.status == "sending", Notice.claimed_at < now - STALE_CLAIM)
        .values(status="pending").execution_options(synchronize_session=False))
    db.session.commit()
    return done.rowcount


def send_due(senders: Mapping[str, Sender], now: datetime | None = None,
             limit: int = 200, batch: int = CLAIM_BATCH) -> int:
    """Send the due notices of the channels in ``senders``; returns how many were sent.

    Due notices are claimed ``batch`` at a time, in one UPDATE and one commit (on
    PostgreSQL the rows another sender is claiming are skipped, not waited for), and
    each one's outcome is stored in a commit of its own right after it is sent: a
    notice handed over is never handed over again, and a failure of one notice (or
    of its channel) never holds up the others.
    """
    now = now or utcnow()
    release_stale_claims(now)
    channels, sent, left = list(senders), 0, limit
    while left > 0:
        claimed = _claim_batch(channels, now, min(batch, left))
        if not claimed:
            break
        left -= len(claimed)
        for notice_id in claimed:
            notice = db.session.get(Notice, notice_id, populate_existing=True)
            try:
                outcome = senders[notice.channel](notice)
            except Exception as exc:  # a sender's bug must not stop the queue: retry later
                log.exception("notice %d (%s) failed", notice_id, notice.channel)
                db.session.rollback()
                outcome = Outcome.retry(f"{exc.__class__.__name__}: {exc}")
            sent += _settle(notice_id, outcome, now)
    return sent


def _claim_batch(channels: list[str], now: datetime, size: int) -> list[int]:
    """Claim up to ``size`` due notices of ``channels``: their ids, oldest first.

    services/claims.py: one conditional UPDATE, so two senders never claim the same
    row, and on PostgreSQL FOR UPDATE SKIP LOCKED, so they divide the queue.
    """
    return claims.claim_batch(Notice, and_(is_due(now), Notice.channel.in_(channels)), size,
                              status="sending", claimed_at=now)


def _settle(notice_id: int, outcome: Outcome, now: datetime) -> int:
    """Store what became of a claimed notice (only while this sender still holds it)."""
    row = db.session.get(Notice, notice_id, populate_existing=True)
    attempts = row.attempts + 1
    if outcome.what == "sent":
        values = dict(status="sent", sent_at=now, attempts=attempts, last_error="")
    elif outcome.what == "drop":
        values = dict(status="dropped", attempts=attempts, last_error=outcome.detail[:2000])
    else:
        limit = current_app.config.get("NOTICE_MAX_ATTEMPTS", 12)
        values = dict(status="failed" if attempts >= limit else "pending", attempts=attempts,
                      last_error=outcome.detail[:2000], next_attempt_at=now + backoff(attempts))
    db.session.execute(
        update(Notice).where(Notice.id == notice_id, Notice.status == "sending")
        .values(**values).execution_options(synchronize_session=False))
    db.session.commit()
    return 1 if outcome.what == "sent" else 0


def counts() -> dict[str, int]:
    """How many notices stand in each status (for `vpsleuth check` and the operator)."""
    rows = db.session.execute(select(Notice.status, db.func.count()).group_by(Notice.status))
    found = dict.fromkeys(STATUSES, 0)
    found.update({status: n for status, n in rows})
    return found
