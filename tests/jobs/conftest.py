"""Fixtures for the scheduler and outbound mail: an app that really sends to an SMTP sink.

Flask-Mail reads its settings when the app is built, so the ``app`` fixture of
tests/conftest.py is replaced here by one built with the sink's port (on every
database under test, with the schema the real migrations built).
"""

from __future__ import annotations

import pytest
from smtp_sink import DATABASES, mail_config

from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games


@pytest.fixture(params=DATABASES)
def app(request, app_on, sink):
    """The app on one database, emptied before each test, sending mail to the sink."""
    with app_on(request.param, **mail_config(sink.port)) as app:
        yield app


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
