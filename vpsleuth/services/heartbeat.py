"""The scheduler's heartbeat: when it last ticked, kept in SchedulerState.

Its age tells whether the service was down, which decides the outage rule
(resolution.apply_outage_rule) and, later, a health check.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import SchedulerState

HEARTBEAT = "heartbeat"


def last_heartbeat() -> datetime | None:
    """When the scheduler last ticked; None if it never has (a first start)."""
    row = db.session.get(SchedulerState, HEARTBEAT, populate_existing=True)
    return row.updated_at if row is not None else None


def record_heartbeat(now: datetime) -> None:
    """Write ``now`` (value: ISO time); never moves the heartbeat backwards.

    Safe with several schedulers: the row is created once, then only updated.
    """
    if _advance(now) or db.session.get(SchedulerState, HEARTBEAT) is not None:
        db.session.commit()
        return
    db.session.add(SchedulerState(name=HEARTBEAT, value=now.isoformat(), updated_at=now))
    try:
        db.session.commit()
    except IntegrityError:  # another scheduler created it a moment ago
        db.session.rollback()
        _advance(now)
        db.session.commit()


def _advance(now: datetime) -> bool:
    done = db.session.execute(
        update(SchedulerState)
        .where(SchedulerState.name == HEARTBEAT, SchedulerState.updated_at < now)
        .values(value=now.isoformat(), updated_at=now)
        .execution_options(synchronize_session=False))
    return done.rowcount == 1
