"""Fixtures for the scheduler and outbound mail: an app that really sends to an SMTP sink.

Flask-Mail reads its settings when the app is built, so the ``app`` fixture of
tests/conftest.py is replaced here by one built with the sink's port (on every
database under test, with the schema the real migrations built).
"""

from __future__ import annotations

import pytest
from smtp_sink import DATABASES, mail_config
from sqlalchemy import text

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.schedule import weekly
from vpsleuth.services import games


@pytest.fixture(params=DATABASES)
def app(request, migrated, tmp_path_factory, tmp_path, sink):
    """The app on one database, emptied before each test, sending mail to the sink."""
    url = migrated(request.param, tmp_path_factory)
    app = create_app({**mail_config(url, sink.port), "DATABASE_KIND": request.param})
    app.instance_path = str(tmp_path / "instance")
    with app.app_context():
        empty_tables(request.param)
        yield app
        db.session.remove()
        db.engine.dispose()


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
def new_game(now):
    """Make a game with players (Ada, Bob, Cyd by default), started at ``now``."""
    def make(name="Winter", players=("Ada", "Bob", "Cyd"), schedule=None, rules=None,
             start=True, started_at=None, **options):
        schedule = schedule or weekly("2026-12-06 20:00", "Europe/Berlin")
        game = games.create_game(name, schedule, rules, **options)
        for p in players:
            games.add_player(game, p, f"{p.lower()}@example.org", now=started_at or now)
        if start:
            games.start_game(game, now=started_at or now, seed=7)
        return game
    return make
