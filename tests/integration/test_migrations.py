"""Migrations: from an empty database and from every earlier revision to the newest.

Run on SQLite and on a PostgreSQL database of their own; at the end the schema
must be exactly what the models describe (autogenerate finds nothing to do).
"""

from __future__ import annotations

import os
import uuid

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from vpsleuth import create_app
from vpsleuth.extensions import db

POSTGRES_ADMIN_URL = os.environ.get(
    "VPSLEUTH_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
DATABASES = [d.strip() for d in
             os.environ.get("VPSLEUTH_TEST_DATABASES", "sqlite,postgresql").split(",") if d]


@pytest.fixture(params=DATABASES)
def empty_url(request, tmp_path):
    """A brand-new, empty database of each kind."""
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


def revisions(app) -> list[str]:
    config = app.extensions["migrate"].migrate.get_config()
    script = ScriptDirectory.from_config(config)
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def schema_differences() -> list:
    with db.engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn), db.metadata)


def test_an_empty_database_upgrades_to_exactly_the_models(empty_url):
    app = create_app({"SQLALCHEMY_DATABASE_URI": empty_url})
    with app.app_context():
        upgrade()
        assert schema_differences() == []
        db.engine.dispose()


def test_every_earlier_revision_upgrades_to_the_newest_with_its_data(empty_url):
    app = create_app({"SQLALCHEMY_DATABASE_URI": empty_url})
    with app.app_context():
        history = revisions(app)
        assert len(history) >= 2
        for older in history[:-1]:
            downgrade(revision="base")
            upgrade(revision=older)
            with db.engine.begin() as conn:
                conn.execute(text(
                    "INSERT INTO game (name, state, language, timezone, schedule_json, rounds, "
                    "first_bonus_round, bonuses, points_right, points_wrong, early_resolution, "
                    "created_at) VALUES ('Old game', 'setup', 'en', 'UTC', '{}', 12, 5, "
                    "'3,2,1', 1, -2, false, '2026-01-01 00:00:00')"))
                game_id = conn.execute(text("SELECT id FROM game")).scalar_one()
                conn.execute(text(
                    "INSERT INTO player (game_id, name, email, language, active, joined_at) "
                    f"VALUES ({game_id}, 'Ada', 'ada@example.org', 'en', true, "
                    "'2026-01-01 00:00:00')"))
            upgrade()
            with db.engine.connect() as conn:
                names = conn.execute(text("SELECT name FROM game")).scalars().all()
                player = conn.execute(text("SELECT name, email FROM player")).one()
            assert names == ["Old game"], older
            assert tuple(player) == ("Ada", "ada@example.org"), older
            assert schema_differences() == [], older
        db.engine.dispose()
