"""Throw-away databases with the real schema, and loading rows into them fast.

Rows are written with COPY on PostgreSQL and one executemany on SQLite, never
through the services, so that setting up 720,000 tips takes seconds.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

from flask import Flask
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import OperationalError

from vpsleuth import create_app
from vpsleuth.extensions import db

POSTGRES_ADMIN_URL = os.environ.get(
    "VPSLEUTH_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


@contextlib.contextmanager
def temporary_database(kind: str) -> Iterator[str]:
    """The URL of a new, empty database of ``kind`` ("sqlite" or "postgresql"), dropped after."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="vpsleuth-bench-") as folder:
            yield f"sqlite:///{folder}/bench.db"
        return
    admin = make_url(POSTGRES_ADMIN_URL)
    name = f"vpsleuth_bench_{uuid.uuid4().hex[:10]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        _drop(engine, name)


def _drop(engine: Engine, name: str) -> None:
    """Drop the database, retrying for a while if the server is being restarted."""
    for attempt in range(30):
        try:
            with engine.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            break
        except OperationalError:
            engine.dispose()
            if attempt == 29:
                print(f"could not drop the database {name}; drop it by hand", file=sys.stderr)
            time.sleep(1)
    engine.dispose()


def migrated_app(url: str, kind: str) -> Flask:
    """The app on ``url``, its schema built by the real migrations."""
    from flask_migrate import upgrade

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "DATABASE_KIND": kind,
                      "SECRET_KEY": "bench-only", "TESTING": False,
                      # a failed statement must not print 300 MB of mail parameters
                      "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True,
                                                    "hide_parameters": True}})
    with app.app_context():  # with a URL and a key given, nothing goes to the instance folder
        upgrade()
    return app


@contextlib.contextmanager
def bench_app(url: str, kind: str) -> Iterator[Flask]:
    """``migrated_app`` in an app context; the pool closed after.

    A connection the server drops midway (someone restarted it) stops the run
    with a hint instead of a traceback.
    """
    app = migrated_app(url, kind)
    with app.app_context():
        try:
            yield app
        except OperationalError as exc:
            raise SystemExit(f"[{kind}] the database failed ({exc.orig!r}); was the "
                             "server restarted meanwhile? Run again.") from None
        finally:
            db.session.remove()
            db.engine.dispose()


def start_afresh(kind: str, reset: Callable[[Connection], None]) -> None:
    """Before a run (untimed): a new session, ``reset`` in one transaction, then ``vacuum``."""
    db.session.remove()
    with db.engine.begin() as conn:
        reset(conn)
    vacuum(kind)


def server_version(kind: str) -> str:
    """The database's version, for the figures."""
    if kind == "sqlite":
        import sqlite3

        return f"SQLite {sqlite3.sqlite_version}"
    version = db.session.execute(text("SHOW server_version")).scalar_one().split()[0]
    return f"PostgreSQL {version}"


def _value(value, kind: str):
    if isinstance(value, datetime):  # stored as naive UTC, as UTCDateTime does
        value = value.astimezone(UTC).replace(tzinfo=None)
        return value if kind == "postgresql" else value.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, bool) and kind == "sqlite":
        return int(value)
    return value


def bulk_load(conn: Connection, table: str, rows: list[dict]) -> None:
    """Insert ``rows`` (missing columns take the model's default) as fast as the database can."""
    if not rows:
        return
    columns = list(db.metadata.tables[table].columns)
    defaults = {}
    for col in columns:
        if col.name not in rows[0] and col.default is not None:
            arg = col.default.arg
            defaults[col.name] = arg(None) if callable(arg) else arg
    names = [c.name for c in columns if c.name in rows[0] or c.name in defaults]
    kind = conn.dialect.name
    values = ([_value(r[n] if n in r else defaults[n], kind) for n in names] for r in rows)
    quoted = ", ".join(f'"{n}"' for n in names)
    if kind == "postgresql":
        raw = conn.connection.driver_connection
        with raw.cursor() as cur, cur.copy(f'COPY "{table}" ({quoted}) FROM STDIN') as copy:
            for row in values:
                copy.write_row(row)
    else:
        marks = ", ".join("?" for _ in names)
        conn.exec_driver_sql(f'INSERT INTO "{table}" ({quoted}) VALUES ({marks})',
                             [tuple(v) for v in values])


def after_load(conn: Connection) -> None:
    """Move PostgreSQL's id sequences past the ids we chose; refresh planner statistics."""
    if conn.dialect.name == "postgresql":
        for table in db.metadata.sorted_tables:
            if "id" not in table.columns:
                continue
            seq = conn.exec_driver_sql(
                f"SELECT pg_get_serial_sequence('\"{table.name}\"', 'id')").scalar()
            if seq:
                conn.exec_driver_sql(
                    f"SELECT setval('{seq}', COALESCE((SELECT max(id) FROM \"{table.name}\"), 0)"
                    " + 1, false)")
    conn.exec_driver_sql("ANALYZE")


def vacuum(kind: str) -> None:
    """Between runs (untimed): PostgreSQL clears the dead rows the reset left."""
    if kind == "postgresql":
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
