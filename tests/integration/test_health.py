"""/healthz: the database and the scheduler's heartbeat."""

from __future__ import annotations

from datetime import timedelta

from vpsleuth.extensions import db
from vpsleuth.models import SchedulerState, utcnow


def beat(age: timedelta) -> None:
    row = db.session.get(SchedulerState, "heartbeat") or SchedulerState(name="heartbeat")
    row.value = (utcnow() - age).isoformat()
    db.session.merge(row)
    db.session.commit()


def test_health_is_ok_with_a_recent_heartbeat(app):
    beat(timedelta(seconds=5))
    response = app.test_client().get("/healthz")
    assert response.status_code == 200
    assert response.json["database"] == "ok" and response.json["scheduler"] == "ok"


def test_health_is_unavailable_without_a_heartbeat_or_with_an_old_one(app):
    client = app.test_client()
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json["scheduler"] == "no heartbeat yet"
    beat(timedelta(minutes=30))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json["scheduler"].startswith("no heartbeat for 1800 s")
