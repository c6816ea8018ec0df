"""GET /healthz: the database answers and the scheduler's heartbeat is recent."""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, current_app
from sqlalchemy import text

from ..extensions import db
from ..models import SchedulerState, utcnow

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """200 when all is well, 503 naming what is not; no secrets, no game data."""
    report: dict = {"database": "ok", "scheduler": "ok"}
    try:
        db.session.execute(text("SELECT 1"))
        beat = db.session.get(SchedulerState, "heartbeat")
    except Exception as exc:  # noqa: BLE001 - any driver error means "down"
        db.session.rollback()
        current_app.logger.warning("health check: database unavailable: %s", exc)
        return {"database": "unavailable", "scheduler": "unknown"}, 503
    limit = current_app.config["HEALTH_HEARTBEAT_MAX_AGE"]
    if beat is None:
        report["scheduler"] = "no heartbeat yet"
    else:
        age = (utcnow() - datetime.fromisoformat(beat.value)).total_seconds()
        report["scheduler_heartbeat_age_seconds"] = round(age)
        if age > limit:
            report["scheduler"] = f"no heartbeat for {round(age)} s (limit {limit} s)"
    healthy = report["scheduler"] == "ok"
    return report, 200 if healthy else 503
