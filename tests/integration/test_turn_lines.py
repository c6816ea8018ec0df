"""The lines of one turn apply in the order written, over the standing turn (RULES.md 6a)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import StandingTip
from vpsleuth.rules import GEM_BY_CODE, parse_question
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, resolution, turns


def tips(**by_location: str) -> dict:
    return {GEM_BY_CODE[c]: loc for loc, codes in by_location.items() for c in codes.split()}


@pytest.fixture
def game(app, now):
    """Round 2 of a game in which Ada tipped RD1 at B and GO3 at C in round 1."""
    game = games.create_game("Lines", weekly("2026-12-06 20:00", "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org")
    games.start_game(game, now=now, seed=3)
    turns.submit_turn(game.players[0], "TIP B RD1, C GO3", channel="cli", now=now)
    resolution.resolve_round(game, now=now)
    return game


def send(game, text: str, now):
    return turns.submit_turn(game.players[0], text, channel="cli",
                             now=now + timedelta(hours=1)).standing


def test_a_tip_then_repeat_leaves_last_rounds_tip(game, now):
    assert send(game, "TIP A RD1\nREPEAT", now).tips == tips(B="RD1", C="GO3")


def test_repeat_then_a_tip_leaves_the_tip(game, now):
    assert send(game, "REPEAT\nTIP A RD1", now).tips == tips(A="RD1", C="GO3")


def test_a_tip_then_drop_all_leaves_nothing_and_drop_all_then_a_tip_leaves_the_tip(game, now):
    send(game, "TIP D BD1", now)
    assert send(game, "TIP F YO3\nDROP ALL", now).tips == {}
    send(game, "TIP D BD1", now)
    assert send(game, "DROP ALL\nTIP F YO3", now).tips == tips(F="YO3")


def test_question_then_question_none_and_the_reverse(game, now):
    assert send(game, "QUESTION A red\nQUESTION NONE", now).question is None
    assert send(game, "QUESTION NONE\nQUESTION D D", now).question == parse_question("D diamond")


def test_a_turn_over_a_standing_turn_applies_line_by_line(game, now):
    send(game, "QUESTION E blue opal\nTIP A BD1, D YP2, E RD1", now)
    standing = send(game, "TIP G BD1\nDROP YP2\nREPEAT\nTIP F GO3\nDROP RD1\nTIP C YP2", now)
    assert standing.tips == tips(G="BD1", F="GO3", C="YP2")
    assert standing.question == parse_question("E blue opal")
    # What is stored is what was answered.
    round_ = game.open_round
    stored = {row.gem: row.location for row in db.session.scalars(select(StandingTip).where(
        StandingTip.round_id == round_.id))}
    assert stored == {"BD1": "G", "GO3": "F", "YP2": "C"}
    assert turns.standing_turn(round_, game.players[0]).tips == standing.tips
