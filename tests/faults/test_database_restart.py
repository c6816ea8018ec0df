"""PostgreSQL restarted while the service runs: clean failures, then recovery.

The service runs on a PostgreSQL cluster of the test's own (initdb into a
temporary folder, its own port), so stopping it disturbs no other user of the
machine's server. While it is down every request gets a plain 503 (JSON on
the API, a page elsewhere, never a traceback); once it is back the same
service process answers normally, without a restart.
"""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request

import pytest
from flask_migrate import upgrade
from pg_cluster import Cluster
from served import served as serving

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, SchedulerState, utcnow
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games


def call(url: str, data: dict | None = None, **headers) -> tuple[int, str]:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    try:
        request = urllib.request.Request(url, data=body, headers=headers)
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


@pytest.fixture
def cluster():
    own = Cluster()
    try:
        own.start()
        yield own
    finally:
        own.remove()


@pytest.fixture
def app(cluster):
    """The app on that cluster, with a player, Ada, who can ask for a sign-in link."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": cluster.url, "WTF_CSRF_ENABLED": False})
    with app.app_context():
        upgrade()
        db.session.merge(SchedulerState(name="heartbeat", value=utcnow().isoformat()))
        game = games.create_game("Winter", weekly("2026-12-06 20:00", "Europe/Berlin"))
        games.add_player(game, "Ada", "ada@example.org", invite=False)
        db.session.commit()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def served(app):
    """The service in a thread of this process, as a server runs it."""
    with serving(app) as base:
        yield base


def sign_in_mails(app) -> int:
    with app.app_context():
        return db.session.query(OutboxMessage).filter_by(kind="sign_in").count()


def answers(base: str) -> dict[str, tuple[int, str]]:
    """What the health check, the API and a page that writes to the database answer."""
    return {
        "health": call(f"{base}/healthz"),
        "api": call(f"{base}/api/v1/me", Authorization="Bearer vps_unknown"),
        "page": call(f"{base}/signin", {"email": "ada@example.org"}),
    }


def test_requests_fail_cleanly_while_postgres_is_down_and_work_again_after(
        app, cluster, served):
    before = answers(served)
    assert [status for status, _ in before.values()] == [200, 401, 200]
    assert sign_in_mails(app) == 1

    cluster.stop()
    down = answers(served)
    assert {name: status for name, (status, _) in down.items()} == {
        "health": 503, "api": 503, "page": 503}
    assert '"database":"unavailable"' in down["health"][1].replace(" ", "")
    assert '"code":"unavailable"' in down["api"][1].replace(" ", "")
    assert "database is unavailable" in down["page"][1]
    assert all("Traceback" not in body and "psycopg" not in body for _, body in down.values())

    cluster.start()
    after = answers(served)  # the same process: its pool reconnects by itself
    assert {name: status for name, (status, _) in after.items()} == {
        "health": 200, "api": 401, "page": 200}
    assert after["page"][1] == before["page"][1]
    assert sign_in_mails(app) == 2  # nothing half-written while it was down, and it writes again
