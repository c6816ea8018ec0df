"""Fixtures for the hostile-input tests: an app on SQLite alone, and a prepared cast.

The fuzzers of the API and of the mail pipeline send thousands of requests and
messages; they run on SQLite alone (the migrated schema of tests/conftest.py,
emptied first) to stay fast. Tests that need both databases use ``app``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from sqlalchemy import event, text

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.models import Game, GameMaster, Player
from vpsleuth.services import accounts, games

from .support import make_game, play_round


@pytest.fixture
def sqlite_app(migrated, tmp_path_factory, tmp_path):
    """The app on the migrated SQLite database, emptied, its context pushed.

    Commits are not synced to disk (a crash of the test machine is not what is
    tested here): the fuzzers commit thousands of times.
    """
    url = migrated("sqlite", tmp_path_factory)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "DATABASE_KIND": "sqlite"})
    app.instance_path = str(tmp_path / "instance")
    with app.app_context():
        event.listen(db.engine, "connect", _unsynced)
        with db.engine.begin() as conn:
            for table in reversed(db.metadata.sorted_tables):
                conn.execute(text(f'DELETE FROM "{table.name}"'))
        yield app
        db.session.remove()
        db.engine.dispose()


def _unsynced(dbapi_connection, connection_record) -> None:
    dbapi_connection.execute("PRAGMA synchronous=OFF")


@dataclass
class Cast:
    """Gail runs "Running" (round 1 open), "Finished" and "Setup"; Ada and Ben play."""

    gail: GameMaster
    running: Game
    finished: Game
    setup: Game
    ada: Player
    ben: Player
    tokens: dict[str, str]

    @property
    def game_ids(self) -> list[int]:
        return [self.running.id, self.finished.id, self.setup.id]

    @property
    def player_ids(self) -> list[int]:
        return [p.id for g in (self.running, self.finished, self.setup) for p in g.players]


@pytest.fixture
def cast(sqlite_app) -> Cast:
    """Three games in three states, their players, and API tokens for a GM and a player."""
    gail = accounts.create_game_master("gail@example.org", "Gail")
    both = [("Ada", "ada@example.org"), ("Ben", "ben@example.org")]
    running = make_game("Running", gail, both)
    games.start_game(running, seed=7)
    finished = make_game("Finished", gail, both, rounds=1)
    games.start_game(finished, seed=8)
    play_round(finished, {"Ada": "QUESTION C pearl\nTIP C GP1"})
    setup = make_game("Setup", gail, [("Cy", "cy@example.org")])
    ada, ben = running.players
    tokens = {"gm": accounts.issue_api_token(game_master=gail)[1],
              "player": accounts.issue_api_token(player=ada)[1]}
    return Cast(gail, running, finished, setup, ada, ben, tokens)
