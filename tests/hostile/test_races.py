"""A turn racing the resolution of its round: counted in that round, or refused.

The soak test (tests/faults/test_soak.py) showed turns and resolutions getting
in each other's way: PostgreSQL deadlocks between a submission and a resolver
(a 503 for the player, a failed job for the scheduler). Behind it: a turn that
passed the "is the round open?" check just before a resolver claimed the round
was applied and confirmed as accepted after the resolution had read the
standing turns, so the round was scored without it. These tests stop a
submission at exactly that point and resolve the round from another thread.
"""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Game, RoundResult, TurnVersion
from vpsleuth.orders import parse_turn
from vpsleuth.services import games, resolution, turns
from vpsleuth.services.errors import RoundClosed

from .support import make_game


def resolve_in_another_session(app, game_id: int, number: int) -> None:
    """Resolve a round from a thread of its own (its own session and connection)."""
    errors: list[BaseException] = []

    def run() -> None:
        with app.app_context():
            try:
                resolution.resolve_round(db.session.get(Game, game_id), number=number)
            except BaseException as exc:  # noqa: BLE001 - handed to the test below
                errors.append(exc)
            finally:
                db.session.remove()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive() and errors == []


@pytest.fixture
def game(app) -> Game:
    game = make_game("Race", None, [("Ada", "ada@example.org"), ("Ben", "ben@example.org")])
    games.start_game(game, seed=3)
    return game


def test_a_turn_checked_open_just_before_its_round_is_resolved_is_refused_not_lost(
        app, game, monkeypatch):
    ada = game.players[0]

    def parse_while_the_round_is_resolved(text):
        monkeypatch.undo()
        resolve_in_another_session(app, game.id, 1)
        return parse_turn(text)

    monkeypatch.setattr(turns, "parse_turn", parse_while_the_round_is_resolved)
    with pytest.raises(RoundClosed, match="round 1"):
        turns.submit_turn(ada, "QUESTION A red\nTIP A RD1, B BP2", channel="api",
                          round_number=1)
    db.session.expire_all()
    version = db.session.scalars(select(TurnVersion)).one()
    assert (version.status, version.text) == ("refused", "QUESTION A red\nTIP A RD1, B BP2")
    result = db.session.scalars(select(RoundResult).where(
        RoundResult.player_id == ada.id)).one()
    assert (result.submitted, result.tips) == (False, 0)
    assert turns.standing_turn(game.round(1), ada).is_empty


def test_a_turn_accepted_before_its_round_is_claimed_is_scored_in_that_round(app, game):
    ada = game.players[0]
    turns.submit_turn(ada, "TIP A RD1, B BP2", channel="api", round_number=1)
    resolve_in_another_session(app, game.id, 1)
    db.session.expire_all()
    result = db.session.scalars(select(RoundResult).where(
        RoundResult.player_id == ada.id)).one()
    assert (result.submitted, result.tips) == (True, 2)
