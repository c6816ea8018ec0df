"""PostgreSQL restarted while the service runs: clean failures, then recovery.

The service runs on a PostgreSQL cluster of the test's own (initdb into a
temporary folder, its own port), so stopping it disturbs no other user of the
machine's server. While it is down every request gets a plain 503 (JSON on
the API, a page elsewhere, never a traceback); once it is back the same
service process answers normally, without a restart.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from flask_migrate import upgrade
from served import served as serving

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, SchedulerState, utcnow
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games


def _bindir() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise RuntimeError("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
    return Path(initdb).parent


class Cluster:
    """A throwaway PostgreSQL cluster; run as the postgres user when we are root."""

    def __init__(self) -> None:
        self.bindir = _bindir()
        self.folder = Path(tempfile.mkdtemp(prefix="vpsleuth-pg-"))
        self.data = self.folder / "data"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.as_user = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "--no-sync", "-E", "UTF8")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bindir / program), *args], check=True,
                       timeout=120, capture_output=True)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.folder / "log"), "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        subprocess.run([*self.as_user, str(self.bindir / "pg_ctl"), "-D", str(self.data),
                        "-m", "immediate", "-w", "stop"], capture_output=True, timeout=120)
        shutil.rmtree(self.folder, ignore_errors=True)


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
