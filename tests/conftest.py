"""Shared fixtures: an app on every database under test, with the real migrations.

Databases: VPSLEUTH_TEST_DATABASES (default "sqlite,postgresql"). PostgreSQL is
reached through VPSLEUTH_TEST_POSTGRES_URL (default: the local server with trust
auth); each test run creates a database of its own and drops it at the end.
A PostgreSQL that cannot be reached fails the run: it is never skipped.

Before the first test runs, tests/system_needs.py brings what the collected
tests need of the machine: Chromium, Dovecot, a running PostgreSQL.
"""

from __future__ import annotations

import contextlib
import os
import sys
import uuid
from datetime import UTC, datetime

import pytest
import system_needs
from smtp_sink import Sink, free_port
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from vpsleuth import create_app
from vpsleuth.extensions import db

POSTGRES_ADMIN_URL = os.environ.get(
    "VPSLEUTH_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
DATABASES = [d.strip() for d in
             os.environ.get("VPSLEUTH_TEST_DATABASES", "sqlite,postgresql").split(",")
             if d.strip()]
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def pytest_collection_finish(session):
    """Install or start what the collected tests drive for real, or stop with a message."""
    if session.config.option.collectonly or not session.items:
        return
    needs = system_needs.needs_of(session.items, sys.modules, DATABASES)
    capture = session.config.pluginmanager.getplugin("capturemanager")
    try:  # with output capture off: apt-get and our notes show as they happen
        with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
            system_needs.bring(needs, POSTGRES_ADMIN_URL)
    except system_needs.Unmet as exc:
        pytest.exit(f"vpsleuth tests: {exc}", returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.fixture(scope="session")
def postgres_url():
    """A fresh PostgreSQL database for this test run, dropped afterwards."""
    admin = make_url(POSTGRES_ADMIN_URL)
    name = f"vpsleuth_test_{uuid.uuid4().hex[:10]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT", pool_pre_ping=True)
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # pragma: no cover - depends on the machine
        pytest.fail(f"PostgreSQL at {admin.render_as_string(hide_password=True)} is not "
                    f"reachable ({exc.__class__.__name__}); start it or set "
                    "VPSLEUTH_TEST_DATABASES=sqlite", pytrace=False)
    yield admin.set(database=name).render_as_string(hide_password=False)
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


@pytest.fixture(params=DATABASES)
def empty_url(request, tmp_path):
    """A brand-new, empty database of each kind, for a test that migrates it itself."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'm.db'}"
        return
    admin = create_engine(make_url(POSTGRES_ADMIN_URL), isolation_level="AUTOCOMMIT")
    name = f"vpsleuth_mig_{uuid.uuid4().hex[:10]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(POSTGRES_ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="session")
def migrated(request):
    """Per database kind: a URL whose schema the real migrations have built."""
    done: dict[str, str] = {}

    def get(kind: str, tmp_path_factory) -> str:
        if kind not in done:
            if kind == "sqlite":
                path = tmp_path_factory.mktemp("db") / "vpsleuth.db"
                url = f"sqlite:///{path}"
            else:
                url = request.getfixturevalue("postgres_url")
            app = create_app({"SQLALCHEMY_DATABASE_URI": url})
            with app.app_context():
                from flask_migrate import upgrade

                upgrade()
                db.engine.dispose()
            done[kind] = url
        return done[kind]

    return get


@pytest.fixture
def app_on(migrated, tmp_path_factory, tmp_path):
    """A factory: ``with app_on(kind, **config) as app`` gives an emptied app on ``kind``."""
    @contextlib.contextmanager
    def build(kind: str, **config):
        url = migrated(kind, tmp_path_factory)
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "DATABASE_KIND": kind, **config})
        app.instance_path = str(tmp_path / "instance")
        with app.app_context():
            empty_tables(kind)
            yield app
            db.session.remove()
            db.engine.dispose()
    return build


@pytest.fixture(params=DATABASES)
def app(request, app_on):
    """The app on one database, emptied before each test."""
    with app_on(request.param) as app:
        yield app


def empty_tables(kind: str) -> None:
    tables = [t.name for t in reversed(db.metadata.sorted_tables)]
    with db.engine.begin() as conn:
        if kind == "postgresql":
            conn.execute(text("TRUNCATE " + ", ".join(f'"{t}"' for t in tables)
                              + " RESTART IDENTITY CASCADE"))
        else:
            for t in tables:
                conn.execute(text(f'DELETE FROM "{t}"'))


@pytest.fixture
def sink():
    """A real SMTP server (smtp_sink.py) on a free port; ``sink.stop()`` takes it down."""
    s = Sink(free_port())
    s.start()
    yield s
    s.stop()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def now():
    return NOW
