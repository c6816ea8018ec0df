"""submit_turn's on_accept: a caller's own writes commit with the accepted turn."""

from __future__ import annotations

from datetime import timedelta

import pytest

from vpsleuth.extensions import db
from vpsleuth.models import Player
from vpsleuth.rules import GEM_BY_CODE
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, turns
from vpsleuth.services.errors import RoundClosed, TurnRefused


@pytest.fixture
def ada(app, now) -> Player:
    game = games.create_game("Hooks", weekly("2026-12-06 20:00", "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org")
    games.start_game(game, now=now, seed=1)
    return games.find_player(game, "Ada")


def test_on_accept_sees_the_accepted_turn_and_its_own_write_commits_with_it(ada, now):
    seen = []

    def record(sub: turns.Submission) -> None:
        seen.append((sub.version.status, dict(sub.standing.tips), sub.round.number))
        ada.wants_reminders = False  # the caller's own write

    ada_id = ada.id
    returned = turns.submit_turn(ada, "TIP A RD1", channel="cli", now=now, on_accept=record)
    assert seen == [("accepted", {GEM_BY_CODE["RD1"]: "A"}, 1)]
    assert returned.standing.tips == {GEM_BY_CODE["RD1"]: "A"}
    db.session.remove()  # what a new session reads was committed
    assert db.session.get(Player, ada_id).wants_reminders is False


def test_on_accept_is_never_called_for_a_refused_or_a_late_turn(ada, now):
    calls: list = []
    with pytest.raises(TurnRefused):
        turns.submit_turn(ada, "TIP H RD1", channel="cli", now=now, on_accept=calls.append)
    late = ada.game.open_round.deadline + timedelta(minutes=1)
    with pytest.raises(RoundClosed):
        turns.submit_turn(ada, "TIP A RD1", channel="cli", now=late, on_accept=calls.append)
    assert calls == []
