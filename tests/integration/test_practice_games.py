"""Practice: one human against bots, resolved as soon as the human's turn is in."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Game, OutboxMessage, TurnVersion
from vpsleuth.services import practice, turns


def test_a_practice_round_resolves_on_the_humans_turn_and_the_bots_play_the_next(app, now):
    game = practice.create_practice("ada@example.org", name="Ada", bots=2, level="hard",
                                    seed=4, now=now)
    assert game.practice and game.game_master_id is None and not game.open_to_join
    you = practice.human_of(game)
    assert [p.is_bot for p in game.players] == [False, True, True]
    turns.submit_turn(you, "QUESTION A diamond\nTIP X RD1", channel="web", now=now)
    assert game.round(1).state == "resolved" and game.open_round.number == 2
    bot_turns = db.session.scalars(select(TurnVersion).where(
        TurnVersion.round_id == game.open_round.id)).all()
    assert {v.channel for v in bot_turns} == {"bot"} and len(bot_turns) == 2
    assert db.session.scalar(select(OutboxMessage.id)) is None  # a practice game mails nobody


def test_a_whole_practice_game_ends_with_final_standings(runner):
    text = "QUESTION A red\n\n" + "QUESTION B pearl\nTIP A GD1\n\n" + "\n"
    result = runner.invoke(args=["practice", "--bots", "2", "--level", "easy", "--rounds", "3",
                                 "--seed", "7"], input=text)
    assert result.exit_code == 0, result.output
    assert result.output.count("Round 1: your turn") == 1
    assert "How many red gems does A hold?" in result.output
    assert "The game has ended" in result.output
    game = db.session.scalar(select(Game).where(Game.practice))
    assert game.state == "finished" and len(game.rounds_) == 3


def test_a_refused_practice_turn_is_shown_and_can_be_sent_again(runner):
    text = "TPI A RD1\n\nQUESTION C 1\n\n"
    result = runner.invoke(args=["practice", "--bots", "1", "--rounds", "1", "--seed", "2"],
                           input=text)
    assert result.exit_code == 0, result.output
    assert "line 1:" in result.output and "Nothing of that turn was applied" in result.output
    assert "How many solitaires does C hold?" in result.output


@pytest.mark.parametrize("language, words", [("de", ("(Computer)", "Schlussbericht")),
                                             ("es", ("(bot)",))])
def test_the_terminal_prints_the_reports_in_the_language_asked_for(runner, language, words):
    result = runner.invoke(args=["practice", "--bots", "1", "--rounds", "1", "--seed", "5",
                                 "--level", "hard", "--language", language], input="\n")
    assert result.exit_code == 0, result.output
    assert all(word in result.output for word in words), result.output


def test_a_fourth_running_practice_game_is_refused(app, now):
    from vpsleuth.services.errors import WrongState

    for _ in range(practice.MAX_RUNNING):
        practice.create_practice("ada@example.org", name="Ada", bots=1, level="easy", now=now)
    with pytest.raises(WrongState, match="3 practice games running"):
        practice.create_practice("ada@example.org", name="Ada", bots=1, level="easy", now=now)
    assert db.session.query(Game).filter(Game.practice).count() == practice.MAX_RUNNING
