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
import fcntl
import functools
import os
import shutil
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
import system_needs
from app_cache import empty_tables, restore, session_app
from flask_migrate import upgrade
from smtp_sink import Sink, free_port
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from vpsleuth import create_app
from vpsleuth.extensions import db

# Bytecode caches kept, though this machine's environment sets PYTHONDONTWRITEBYTECODE:
# without them pytest rewrote every test module's asserts anew in each worker (about
# 11 s of a worker's collection), and each of the few hundred processes the tests
# start (servers, schedulers, the mail pipe) compiled the package again. The
# environment is changed before pytest-xdist starts its workers, so they and every
# process they start inherit it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

POSTGRES_ADMIN_URL = os.environ.get(
    "VPSLEUTH_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
DATABASES = [d.strip() for d in
             os.environ.get("VPSLEUTH_TEST_DATABASES", "sqlite,postgresql").split(",")
             if d.strip()]
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CACHED = ("vpsleuth.engine", "vpsleuth.bots", "vpsleuth.services.story")
FAST_DISK = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


def pytest_collection_modifyitems(config, items):
    """The order of the test files, which pytest-xdist hands out one at a time.

    1. The file of a test marked ``alone``: that test waits for the other worker's
       test in progress to end, and as the first file it waits for a short one (in the
       middle of the run it once waited 105 s for a browser walk).
    2. The file with the most tests (hundreds of short ones), which the other worker
       runs meanwhile, so what the ``alone`` test waits for is one of those.
    3. The files marked ``walk``: one long browser walk each (two minutes and less).
       Handed out last, as xdist's order of most tests first did, one of them ended
       the run on one worker while the other had nothing left (a tail of up to a
       minute); started early, the short files fill in beside them at the end.
    4. The rest as pytest-xdist orders them (most tests first): running all the long
       files first slowed each of them twice over and won nothing (commit 0bddfb1).
    """
    files: dict[str, list] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def marked(name: str, mark: str) -> bool:
        return any(t.get_closest_marker(mark) for t in files[name])

    alone = {name for name in files if marked(name, "alone")}
    biggest = max((name for name in files if name not in alone),
                  key=lambda name: len(files[name]), default=None)
    walks = {name for name in files if marked(name, "walk")} - alone

    def rank(name: str) -> tuple[int, int]:
        step = 0 if name in alone else 1 if name == biggest else 2 if name in walks else 3
        return step, -len(files[name])

    items[:] = [item for name in sorted(files, key=rank) for item in files[name]]


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


@contextlib.contextmanager
def fast_folder(fallback: Path):
    """A folder in memory-backed storage (FAST_DISK), removed afterwards; else ``fallback``."""
    if not FAST_DISK:
        yield fallback
        return
    folder = Path(tempfile.mkdtemp(prefix="vpsleuth-", dir=FAST_DISK))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


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
        with fast_folder(tmp_path) as folder:
            yield f"sqlite:///{folder / 'm.db'}"
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
    """Per database kind: a URL whose schema the real migrations have built.

    SQLite lives in memory-backed storage where the machine has it (/dev/shm), and
    the PostgreSQL database of the run does not wait for its log on disk at each
    commit (synchronous_commit off): a crash of the test machine is not what the
    suite tests, and a commit then costs no fsync.
    """
    done: dict[str, str] = {}

    def get(kind: str, tmp_path_factory) -> str:
        if kind not in done:
            if kind == "sqlite":
                stack = contextlib.ExitStack()
                request.addfinalizer(stack.close)
                folder = stack.enter_context(fast_folder(tmp_path_factory.mktemp("db")))
                url = f"sqlite:///{folder / 'vpsleuth.db'}"
            else:
                url = request.getfixturevalue("postgres_url")
                engine = create_engine(url, isolation_level="AUTOCOMMIT")
                with engine.connect() as conn:
                    conn.execute(text(f'ALTER DATABASE "{make_url(url).database}" '
                                      "SET synchronous_commit = off"))
                engine.dispose()
            app = create_app({"SQLALCHEMY_DATABASE_URI": url})
            with app.app_context():
                upgrade()
                db.engine.dispose()
            done[kind] = url
        return done[kind]

    return get


@pytest.fixture
def app_on(migrated, tmp_path_factory, tmp_path):
    """A factory: ``with app_on(kind, **config) as app`` gives an emptied app on ``kind``.

    The app itself is built once per database and configuration for the session
    (app_cache.py); what a test changes in its settings is undone afterwards.
    """
    @contextlib.contextmanager
    def build(kind: str, **config):
        app = session_app(migrated(kind, tmp_path_factory), kind, **config)
        app.instance_path = str(tmp_path / "instance")
        with app.app_context():
            empty_tables(kind)
            try:
                yield app
            finally:
                db.session.remove()
                restore(app)
    return build


@pytest.fixture(params=DATABASES)
def app(request, app_on):
    """The app on one database, emptied before each test."""
    with app_on(request.param) as app:
        yield app


@pytest.fixture(scope="session")
def session_sink():
    """The run's SMTP server: started once, emptied before each test that asks for it."""
    s = Sink(free_port())
    s.start()
    yield s
    s.stop()


@pytest.fixture
def sink(session_sink):
    """A real SMTP server (smtp_sink.py), empty; ``sink.stop()`` takes it down for the test."""
    session_sink.reset()
    yield session_sink
    session_sink.start()  # a test that took it down leaves it running for the next


@pytest.fixture(autouse=True, scope="module")
def _computed_caches_cleared():
    """The engine's, the bots' and the story's memo caches emptied after each module.

    They hold what one module's records needed (up to 100,000 entries each), and no
    other module's records share them: kept, they only grow the process.
    """
    yield
    for name, module in list(sys.modules.items()):
        if name.startswith(CACHED) and module is not None:
            for value in vars(module).values():
                if isinstance(value, functools._lru_cache_wrapper):
                    value.cache_clear()


_ROOM_HELD = False  # this worker holds the room for a whole module (machine_to_itself)


@contextlib.contextmanager
def _turn(config, alone: bool):
    """One test's (or module's) turn: the room shared, or to itself when ``alone``.

    Two lock files shared by the workers of this run: every test passes a turnstile and
    holds the room shared; an ``alone`` test holds the turnstile (no new test enters)
    while it waits for the room to itself. Without workers there is nothing to wait for,
    and inside a module that holds the room already there is nothing more to take.
    """
    run = getattr(config, "workerinput", {}).get("testrunuid")
    if run is None or _ROOM_HELD:
        yield
        return
    folder = Path(tempfile.gettempdir())
    with open(folder / f"vpsleuth-{run}.turnstile", "a") as turnstile, \
            open(folder / f"vpsleuth-{run}.room", "a") as room:
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(room, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(room, fcntl.LOCK_UN)


@pytest.fixture(autouse=True)
def _alone_when_marked(request):
    """Tests marked ``alone`` run while the other worker runs nothing; the rest side by side."""
    with _turn(request.config, request.node.get_closest_marker("alone") is not None):
        yield


@pytest.fixture(scope="module")
def machine_to_itself(request):
    """The room to this module alone, from its fixtures' setup to their teardown.

    For a module whose fixtures change what every process of the machine sees: network
    namespaces (tests/netns.py) add an address and links to the default namespace, and
    Chromium then fails a page load under way with net::ERR_NETWORK_CHANGED (seen once,
    a browser test on the other worker). Mark the module's tests ``alone`` too, so that
    its file is handed out first and waits for a short test, not a browser walk.
    """
    global _ROOM_HELD
    with _turn(request.config, alone=True):
        _ROOM_HELD = True
        try:
            yield
        finally:
            _ROOM_HELD = False


def pytest_terminal_summary(terminalreporter, config):
    """The accessibility counts per page, as test_accessibility.py wrote them in this run.

    Printed here rather than by the test, so they show also when a worker process
    (pytest-xdist) ran it.
    """
    report = Path(__file__).resolve().parent.parent / "test-artifacts" / "accessibility.txt"
    if report.exists() and report.stat().st_mtime >= config._vpsleuth_started:
        terminalreporter.write_sep("-", "accessibility (test-artifacts/accessibility.txt)")
        terminalreporter.write_line(report.read_text())


def pytest_configure(config):
    config._vpsleuth_started = time.time()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def now():
    return NOW
