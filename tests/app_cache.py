"""One app per database and configuration for the whole test session.

Building an app costs about a second here (werkzeug compiles a builder for each
of the ~95 URL rules, and a fresh Jinja environment compiles every template it
renders again), so the fixtures build each (database, configuration) once and
hand every test the same app, its settings put back after the test.
"""

from __future__ import annotations

from flask import Flask
from sqlalchemy import text

from vpsleuth import create_app
from vpsleuth.extensions import db

_APPS: dict[str, Flask] = {}
_SETTINGS: dict[int, dict] = {}  # id(app) -> its settings as built


def session_app(url: str, kind: str, **config) -> Flask:
    """The app on ``url`` (a database of ``kind``) with ``config``, built on first use."""
    settings = {"SQLALCHEMY_DATABASE_URI": url, "DATABASE_KIND": kind, **config}
    key = repr(sorted(settings.items()))
    app = _APPS.get(key)
    if app is None:
        app = _APPS[key] = create_app(settings)
        _SETTINGS[id(app)] = dict(app.config)
    return app


def restore(app: Flask) -> None:
    """Undo what a test changed in ``app.config`` (BASE_URL, limits, IMAP folders...) and
    its test client class."""
    start = _SETTINGS[id(app)]
    app.test_client_class = None  # Flask's own client, whatever a test chose for itself
    for key in [k for k in app.config if k not in start]:
        del app.config[key]
    app.config.update(start)


def empty_tables(kind: str) -> None:
    """Every table emptied, ids counting from 1 again, in one transaction of the app's engine.

    DELETE rather than TRUNCATE on PostgreSQL: TRUNCATE gives each of the ~20 tables
    new files, about half a second a test here; DELETE of a test's few rows costs
    milliseconds. The sequences are set back, as TRUNCATE ... RESTART IDENTITY did.
    """
    tables = [t for t in reversed(db.metadata.sorted_tables)]
    with db.engine.begin() as conn:
        for table in tables:
            conn.execute(table.delete())
        if kind == "postgresql":
            conn.execute(text(
                "SELECT setval(s.seq, 1, false) FROM (SELECT pg_get_serial_sequence("
                "c.table_schema || '.' || quote_ident(c.table_name), c.column_name) AS seq "
                "FROM information_schema.columns c WHERE c.table_schema = 'public') s "
                "WHERE s.seq IS NOT NULL"))
