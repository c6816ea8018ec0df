"""Submitting turns through the service: stored verbatim, all or nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import TurnVersion
from vpsleuth.rules import GEM_BY_CODE, parse_question
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, resolution, standing_turns, turns
from vpsleuth.services.errors import RoundClosed, TurnRefused, WrongState


@pytest.fixture
def game(app, now):
    game = games.create_game("Turns", weekly("2026-12-06 20:00", "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org")
    games.add_player(game, "Ben", "ben@example.org", language="de")
    games.start_game(game, now=now, seed=1)
    return game


def versions(player) -> list[TurnVersion]:
    return db.session.scalars(select(TurnVersion).where(TurnVersion.player_id == player.id)
                              .order_by(TurnVersion.id)).all()


def test_a_later_turn_replaces_the_question_and_tips_gem_by_gem(game, now):
    ada = games.find_player(game, "Ada")
    turns.submit_turn(ada, "QUESTION E blue opal\nTIP A RD1\nTIP B BP2", channel="cli", now=now)
    sub = turns.submit_turn(ada, "FRAGE G Einer\nTIPP C Diamant rot I\nTIP X YO3",
                            channel="email", now=now)
    assert sub.standing.question == parse_question("G solitaire")
    assert sub.standing.tips == {GEM_BY_CODE["RD1"]: "C", GEM_BY_CODE["BP2"]: "B",
                                 GEM_BY_CODE["YO3"]: "X"}
    assert [v.status for v in versions(ada)] == ["accepted", "accepted"]
    assert versions(ada)[0].text == "QUESTION E blue opal\nTIP A RD1\nTIP B BP2"


def test_drop_withdraws_tips_and_question_none_withdraws_the_question(game, now):
    ada = games.find_player(game, "Ada")
    turns.submit_turn(ada, "QUESTION E red\nTIP A RD1, BP2, GO3", channel="cli", now=now)
    sub = turns.submit_turn(ada, "DROP RD1\nQUESTION NONE", channel="cli", now=now)
    assert sub.standing.question is None
    assert set(sub.standing.tips) == {GEM_BY_CODE["BP2"], GEM_BY_CODE["GO3"]}
    sub = turns.submit_turn(ada, "DROP ALL\nTIP D YD1", channel="cli", now=now)
    assert sub.standing.tips == {GEM_BY_CODE["YD1"]: "D"}


def test_a_turn_with_one_bad_line_changes_nothing_and_is_kept_with_its_errors(game, now):
    ada = games.find_player(game, "Ada")
    turns.submit_turn(ada, "QUESTION E red\nTIP A RD1", channel="cli", now=now)
    bad = "QUESTION F blue\nTIP B RD1\nQUESTION X red\nTIP A purple diamond I"
    with pytest.raises(TurnRefused) as refused:
        turns.submit_turn(ada, bad, channel="email", now=now)
    assert [e.line for e in refused.value.errors] == [3, 4]
    assert "purple" in refused.value.errors[1].message
    standing = turns.standing_turn(game.open_round, ada)
    assert standing.question == parse_question("E red")
    assert standing.tips == {GEM_BY_CODE["RD1"]: "A"}
    last = versions(ada)[-1]
    assert (last.text, last.status, last.channel) == (bad, "refused", "email")
    assert "line 3" in last.errors and last.round_id == game.open_round.id


def test_garbage_is_refused_and_stored_verbatim(game, now):
    ada = games.find_player(game, "Ada")
    garbage = "\x00\x1b[31m\ufffd" * 50 + "\n%PDF-1.4 ���"
    with pytest.raises(TurnRefused):
        turns.submit_turn(ada, garbage, channel="email", now=now)
    assert versions(ada)[-1].text == garbage


def test_a_late_turn_is_refused_naming_the_round_and_nothing_moves(game, now):
    ada = games.find_player(game, "Ada")
    deadline = game.open_round.deadline
    with pytest.raises(RoundClosed, match="deadline of round 1 passed.*round 2 will open"):
        turns.submit_turn(ada, "TIP A RD1", channel="email", now=deadline)
    assert turns.standing_turn(game.open_round, ada).tips == {}
    assert versions(ada)[-1].status == "refused"


def test_a_turn_meant_for_an_earlier_round_is_refused_naming_the_open_round(game, now):
    ada = games.find_player(game, "Ada")
    resolution.resolve_round(game, now=now)
    with pytest.raises(RoundClosed, match="for round 1, but round 2 is open"):
        turns.submit_turn(ada, "TIP A RD1", channel="email", now=now, round_number=1)
    assert turns.standing_turn(game.open_round, ada).tips == {}


def test_repeat_copies_last_rounds_tips_and_explicit_tips_win(game, now):
    ada = games.find_player(game, "Ada")
    turns.submit_turn(ada, "TIP A RD1, BP2", channel="cli", now=now)
    resolution.resolve_round(game, now=now)
    assert turns.standing_turn(game.open_round, ada).tips == {}, "no automatic carry-over"
    sub = turns.submit_turn(ada, "REPEAT\nTIP G BP2", channel="cli",
                            now=now + timedelta(hours=1))
    assert sub.round.number == 2
    assert sub.standing.tips == {GEM_BY_CODE["RD1"]: "A", GEM_BY_CODE["BP2"]: "G"}


def test_withdrawn_players_and_games_not_started_cannot_submit(app, game, now):
    ben = games.find_player(game, "Ben")
    games.withdraw_player(ben)
    with pytest.raises(WrongState, match="withdrawn"):
        turns.submit_turn(ben, "TIP A RD1", channel="web", now=now)
    fresh = games.create_game("Not yet", weekly("2026-12-06 20:00", "UTC"))
    cleo = games.add_player(fresh, "Cleo", "cleo@example.org")
    with pytest.raises(WrongState, match="not started"):
        turns.submit_turn(cleo, "TIP A RD1", channel="web", now=now)
    assert versions(cleo)[0].status == "refused"


def test_the_status_board_shows_counts_and_channels_but_no_tip_contents(game, now):
    ada = games.find_player(game, "Ada")
    turns.submit_turn(ada, "QUESTION E red\nTIP A RD1, BP2", channel="email", now=now)
    rows = {r.player.name: r for r in standing_turns.round_status(game)}
    assert (rows["Ada"].submitted, rows["Ada"].tips, rows["Ada"].channel) == (True, 2, "email")
    assert rows["Ada"].has_question and rows["Ada"].last_at == now
    assert (rows["Ben"].submitted, rows["Ben"].tips, rows["Ben"].channel) == (False, 0, None)
    assert not hasattr(rows["Ada"], "distribution")
