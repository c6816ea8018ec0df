"""The forget-old job deletes what no limit or person needs, and nothing else."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.models import RateEvent, WebSession, utcnow
from vpsleuth.services import limits, sessions


def _count(model) -> int:
    db.session.rollback()
    return db.session.scalar(select(func.count()).select_from(model))


def test_old_rate_counts_and_ended_sessions_go_and_live_ones_stay(app):
    now = utcnow()
    limits.record("sign_in_client", "192.0.2.1", now - timedelta(days=3))
    limits.record("sign_in_client", "192.0.2.1", now - timedelta(minutes=5))
    db.session.commit()
    ended = sessions.start("old@example.org", now=now - timedelta(days=5))
    sessions.end(ended, now=now - timedelta(days=4))
    live = sessions.start("ada@example.org", now=now)
    assert (_count(RateEvent), _count(WebSession)) == (2, 2)
    assert jobs.forget_old(app, now) == 2
    assert (_count(RateEvent), _count(WebSession)) == (1, 1)
    assert limits.count("sign_in_client", "192.0.2.1", timedelta(hours=1), now) == 1
    assert sessions.live(live, now) is not None
