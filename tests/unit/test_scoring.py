"""Tip scores, rank bonuses, resolution, end of game and house rules (RULES.md 4, 6, 7)."""

import pytest

from vpsleuth.rules import (
    GEM_BY_CODE,
    GEMS,
    NOBODY,
    PLACEHOLDERS,
    Distribution,
    PlayerResult,
    Question,
    Ruleset,
    RulesetError,
    TipScore,
    Turn,
    competition_ranks,
    is_game_over,
    rank_bonuses,
    resolve,
    score_tips,
)

DEFAULT = Ruleset()


@pytest.fixture(scope="module")
def dist() -> Distribution:
    """The information sheet dealt in runs of five: RD1..RD2 at A, ..., YO3 at X."""
    locations = [p for p in PLACEHOLDERS for _ in range(5)] + [NOBODY]
    return Distribution(dict(zip(GEMS, locations, strict=True)))


def right_tips(dist: Distribution, n: int) -> dict:
    """n correct tips (the first n gems of the sheet)."""
    return {g: dist[g] for g in GEMS[:n]}


def wrong_tips(dist: Distribution, n: int) -> dict:
    """n wrong tips (the last n gems of the sheet, each one place off)."""
    return {g: ("A" if dist[g] != "A" else "B") for g in GEMS[-n:]} if n else {}


def result(correct: int, wrong: int = 0) -> PlayerResult:
    return PlayerResult(answer=None, correct=correct, wrong=wrong, tip_score=0, bonus=0,
                        points=0, submitted=True)


# --- house rules --------------------------------------------------------------------------


def test_default_rules_are_vp_sleuth():
    assert DEFAULT.rounds == 12
    assert DEFAULT.first_bonus_round == 5
    assert DEFAULT.bonuses == (3, 2, 1)
    assert DEFAULT.points_right == 1
    assert DEFAULT.points_wrong == -2
    assert DEFAULT.early_resolution is False


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rounds": 0}, "1 to 52 rounds"),
        ({"rounds": 53}, "1 to 52 rounds"),
        ({"rounds": -1}, "1 to 52 rounds"),
        ({"first_bonus_round": 0}, "first bonus round is round 1 or later"),
        ({"bonuses": (3, -1)}, "none negative"),
        ({"bonuses": (1,) * 11}, "at most ten numbers"),
        ({"bonuses": (1, 2, 3)}, "must not grow with rank"),
        ({"bonuses": (3, 1, 2)}, "must not grow with rank"),
        ({"points_right": 0}, "correct tip must earn more than 0"),
        ({"points_right": -1}, "correct tip must earn more than 0"),
        ({"points_wrong": 1}, "wrong tip cannot earn points"),
    ],
)
def test_unplayable_house_rules_are_refused(kwargs, message):
    with pytest.raises(RulesetError, match=message):
        Ruleset(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [{"rounds": 1}, {"rounds": 52}, {"first_bonus_round": 1}, {"first_bonus_round": 13},
     {"bonuses": ()}, {"bonuses": (5, 5, 0)}, {"bonuses": (1,) * 10},
     {"points_right": 2, "points_wrong": -1}, {"points_wrong": 0}, {"early_resolution": True}],
)
def test_playable_house_rules_are_accepted(kwargs):
    rules = Ruleset(**kwargs)
    assert all(getattr(rules, key) == value for key, value in kwargs.items())


def test_ruleset_error_is_a_value_error():
    assert issubclass(RulesetError, ValueError)


def test_bonus_rounds_start_at_the_first_bonus_round():
    assert [n for n in range(1, 13) if DEFAULT.is_bonus_round(n)] == list(range(5, 13))
    assert [n for n in range(1, 13) if Ruleset(first_bonus_round=3).is_bonus_round(n)] == \
        list(range(3, 13))


# --- tip scores ---------------------------------------------------------------------------


def test_correct_tip_earns_one_point(dist):
    assert score_tips({GEM_BY_CODE["RD1"]: "A"}, dist, DEFAULT) == TipScore(1, 0, 1)


def test_wrong_tip_costs_two_points(dist):
    assert score_tips({GEM_BY_CODE["RD1"]: "B"}, dist, DEFAULT) == TipScore(0, 1, -2)


def test_a_correct_tip_to_nobody_counts(dist):
    assert score_tips({GEM_BY_CODE["YO3"]: "X"}, dist, DEFAULT) == TipScore(1, 0, 1)


def test_a_wrong_tip_to_nobody_costs(dist):
    assert score_tips({GEM_BY_CODE["RD1"]: "X"}, dist, DEFAULT) == TipScore(0, 1, -2)


def test_no_tips_score_nothing(dist):
    assert score_tips({}, dist, DEFAULT) == TipScore(0, 0, 0)


def test_tip_score_is_the_sum_of_right_and_wrong_points(dist):
    tips = right_tips(dist, 10) | wrong_tips(dist, 3)
    assert score_tips(tips, dist, DEFAULT) == TipScore(10, 3, 10 - 6)


def test_house_rule_points_per_correct_and_wrong_tip(dist):
    rules = Ruleset(points_right=2, points_wrong=-1)
    tips = right_tips(dist, 4) | wrong_tips(dist, 5)
    assert score_tips(tips, dist, rules) == TipScore(4, 5, 8 - 5)


def test_all_36_correct_tips_score_36(dist):
    assert score_tips(dict(dist), dist, DEFAULT) == TipScore(36, 0, 36)


# --- rank bonuses -------------------------------------------------------------------------


def test_rank_bonuses_are_dense_over_distinct_counts_as_in_the_rules():
    correct = {"p1": 30, "p2": 30, "p3": 28, "p4": 25, "p5": 25, "p6": 20}
    assert rank_bonuses(correct, (3, 2, 1)) == {
        "p1": 3, "p2": 3, "p3": 2, "p4": 1, "p5": 1, "p6": 0}


def test_every_player_with_the_top_count_gets_the_top_bonus():
    assert rank_bonuses({"a": 5, "b": 5, "c": 5}, (3, 2, 1)) == {"a": 3, "b": 3, "c": 3}


def test_zero_correct_tips_earn_no_bonus():
    assert rank_bonuses({"a": 4, "b": 0, "c": 0}, (3, 2, 1)) == {"a": 3, "b": 0, "c": 0}


def test_nobody_gets_a_bonus_if_nobody_has_a_correct_tip():
    assert rank_bonuses({"a": 0, "b": 0}, (3, 2, 1)) == {"a": 0, "b": 0}


def test_fewer_distinct_counts_than_bonuses_leave_the_lower_bonuses_unused():
    assert rank_bonuses({"a": 2, "b": 1}, (3, 2, 1)) == {"a": 3, "b": 2}


def test_bonus_order_ignores_the_order_of_players():
    assert rank_bonuses({"a": 1, "b": 9, "c": 4}, (3, 2, 1)) == {"a": 1, "b": 3, "c": 2}


def test_custom_bonus_values_are_used():
    correct = {"a": 10, "b": 8, "c": 6, "d": 4}
    assert rank_bonuses(correct, (5, 3)) == {"a": 5, "b": 3, "c": 0, "d": 0}
    assert rank_bonuses(correct, (4, 4, 4, 4)) == {"a": 4, "b": 4, "c": 4, "d": 4}


def test_no_bonus_values_give_no_bonus():
    assert rank_bonuses({"a": 10, "b": 8}, ()) == {"a": 0, "b": 0}


def test_rank_bonuses_of_no_players_is_empty():
    assert rank_bonuses({}, (3, 2, 1)) == {}


# --- standings ranks ----------------------------------------------------------------------


def test_standings_ranks_are_competition_ranks():
    assert competition_ranks({"a": 40, "b": 35, "c": 40, "d": 10}) == {
        "a": 1, "b": 3, "c": 1, "d": 4}


def test_equal_totals_share_the_first_rank():
    assert competition_ranks({"a": 0, "b": 0}) == {"a": 1, "b": 1}


def test_negative_totals_rank_below_zero():
    assert competition_ranks({"a": -5, "b": 0, "c": -5}) == {"a": 2, "b": 1, "c": 2}


def test_no_players_have_no_ranks():
    assert competition_ranks({}) == {}


# --- resolving a round --------------------------------------------------------------------


def test_a_round_before_the_first_bonus_round_gives_no_bonus(dist):
    turns = {"ann": Turn(tips=right_tips(dist, 5)), "bob": Turn(tips=right_tips(dist, 2))}
    outcome = resolve(4, turns, ["ann", "bob"], dist, DEFAULT)
    assert {p: r.bonus for p, r in outcome.results.items()} == {"ann": 0, "bob": 0}
    assert {p: r.points for p, r in outcome.results.items()} == {"ann": 5, "bob": 2}


def test_bonuses_start_in_round_five_by_default(dist):
    turns = {"ann": Turn(tips=right_tips(dist, 5)), "bob": Turn(tips=right_tips(dist, 2))}
    outcome = resolve(5, turns, ["ann", "bob"], dist, DEFAULT)
    assert {p: r.bonus for p, r in outcome.results.items()} == {"ann": 3, "bob": 2}
    assert {p: r.points for p, r in outcome.results.items()} == {"ann": 8, "bob": 4}


def test_a_house_rule_may_start_bonuses_in_round_three(dist):
    rules = Ruleset(first_bonus_round=3)
    turns = {"ann": Turn(tips=right_tips(dist, 5))}
    assert resolve(2, turns, ["ann"], dist, rules).results["ann"].bonus == 0
    assert resolve(3, turns, ["ann"], dist, rules).results["ann"].bonus == 3


def test_bonuses_rank_by_correct_tips_not_by_tip_score(dist):
    # ann: 6 correct, 3 wrong -> tip score 0; bob: 2 correct -> tip score 2.
    turns = {"ann": Turn(tips=right_tips(dist, 6) | wrong_tips(dist, 3)),
             "bob": Turn(tips=right_tips(dist, 2))}
    results = resolve(6, turns, ["ann", "bob"], dist, DEFAULT).results
    assert (results["ann"].tip_score, results["ann"].bonus, results["ann"].points) == (0, 3, 3)
    assert (results["bob"].tip_score, results["bob"].bonus, results["bob"].points) == (2, 2, 4)


def test_round_points_are_tip_score_plus_bonus_with_house_rules(dist):
    rules = Ruleset(points_right=2, points_wrong=-1, bonuses=(10, 5))
    turns = {"ann": Turn(tips=right_tips(dist, 3) | wrong_tips(dist, 1)),
             "bob": Turn(tips=right_tips(dist, 1)),
             "cat": Turn(tips=wrong_tips(dist, 2))}
    results = resolve(5, turns, ["ann", "bob", "cat"], dist, rules).results
    assert results["ann"] == PlayerResult(None, 3, 1, 5, 10, 15, True)
    assert results["bob"] == PlayerResult(None, 1, 0, 2, 5, 7, True)
    assert results["cat"] == PlayerResult(None, 0, 2, -2, 0, -2, True)


def test_a_player_with_no_turn_scores_zero(dist):
    turns = {"ann": Turn(tips=right_tips(dist, 4))}
    outcome = resolve(7, turns, ["ann", "bob"], dist, DEFAULT)
    assert outcome.results["bob"] == PlayerResult(None, 0, 0, 0, 0, 0, False)
    assert outcome.results["ann"].points == 4 + 3


def test_an_empty_turn_counts_as_not_submitted(dist):
    outcome = resolve(1, {"ann": Turn()}, ["ann"], dist, DEFAULT)
    assert outcome.results["ann"].submitted is False
    assert Turn().is_empty
    assert not Turn(question=Question.from_codes("A:R")).is_empty
    assert not Turn(tips={GEM_BY_CODE["RD1"]: "A"}).is_empty


def test_a_question_alone_is_submitted_and_answered(dist):
    turn = Turn(question=Question.from_codes("A:R"))
    result_ = resolve(1, {"ann": turn}, ["ann"], dist, DEFAULT).results["ann"]
    assert result_.submitted is True
    assert result_.answer == 2  # RD1 and RD2 lie at A
    assert result_.points == 0


def test_every_players_question_is_answered(dist):
    turns = {"ann": Turn(question=Question.from_codes("A:D")),
             "bob": Turn(question=Question.from_codes("G:O")),
             "cat": Turn(question=Question.from_codes("C:1P"))}
    results = resolve(1, turns, list(turns), dist, DEFAULT).results
    assert {p: r.answer for p, r in results.items()} == {"ann": 5, "bob": 5, "cat": 3}


def test_withdrawn_players_are_not_resolved(dist):
    turns = {"ann": Turn(tips=right_tips(dist, 1)), "gone": Turn(tips=right_tips(dist, 30))}
    outcome = resolve(5, turns, ["ann"], dist, DEFAULT)
    assert list(outcome.results) == ["ann"]
    assert outcome.results["ann"].bonus == 3


def test_the_outcome_carries_the_round_number(dist):
    assert resolve(3, {}, ["ann"], dist, DEFAULT).number == 3


# --- end of the game ----------------------------------------------------------------------


def test_the_game_ends_after_round_twelve_by_default(dist):
    turns = {"ann": Turn(tips=right_tips(dist, 3))}
    assert not resolve(11, turns, ["ann"], dist, DEFAULT).game_over
    assert resolve(12, turns, ["ann"], dist, DEFAULT).game_over


def test_a_house_rule_may_shorten_the_game(dist):
    rules = Ruleset(rounds=8)
    assert not resolve(7, {}, ["ann"], dist, rules).game_over
    assert resolve(8, {}, ["ann"], dist, rules).game_over


def test_the_game_ends_early_when_every_active_player_solved_it(dist):
    turns = {"ann": Turn(tips=dict(dist)), "bob": Turn(tips=dict(dist))}
    outcome = resolve(6, turns, ["ann", "bob"], dist, DEFAULT)
    assert outcome.game_over
    assert all(r.solved for r in outcome.results.values())
    assert outcome.results["ann"].tip_score == 36


def test_one_unsolved_player_keeps_the_game_going(dist):
    almost = dict(dist) | wrong_tips(dist, 1)
    turns = {"ann": Turn(tips=dict(dist)), "bob": Turn(tips=almost)}
    outcome = resolve(6, turns, ["ann", "bob"], dist, DEFAULT)
    assert not outcome.game_over
    assert outcome.results["ann"].solved
    assert not outcome.results["bob"].solved


def test_a_player_with_35_correct_tips_has_not_solved_it(dist):
    turns = {"ann": Turn(tips=right_tips(dist, 35))}
    assert not resolve(6, turns, ["ann"], dist, DEFAULT).game_over


def test_a_player_with_no_turn_keeps_the_game_going(dist):
    outcome = resolve(6, {"ann": Turn(tips=dict(dist))}, ["ann", "bob"], dist, DEFAULT)
    assert not outcome.game_over


def test_a_withdrawn_unsolved_player_does_not_keep_the_game_going(dist):
    turns = {"ann": Turn(tips=dict(dist)), "gone": Turn()}
    assert resolve(6, turns, ["ann"], dist, DEFAULT).game_over


def test_a_round_with_no_active_player_left_ends_the_game(dist):
    turns = {"gone": Turn(tips=right_tips(dist, 3))}
    outcome = resolve(3, turns, [], dist, DEFAULT)
    assert outcome.game_over
    assert outcome.results == {}


def test_solving_ends_the_game_under_house_rule_points_too(dist):
    rules = Ruleset(points_right=2, points_wrong=-1)
    outcome = resolve(2, {"ann": Turn(tips=dict(dist))}, ["ann"], dist, rules)
    assert outcome.game_over
    assert outcome.results["ann"].tip_score == 72


def test_solved_means_36_correct_and_none_wrong():
    assert result(36).solved
    assert not result(35).solved
    assert not result(36, wrong=1).solved


def test_is_game_over_without_active_players_after_any_round():
    # RULES.md 6: if no active player is left, the game ends after that round.
    assert is_game_over(3, {}, DEFAULT)
    assert is_game_over(12, {}, DEFAULT)
    assert is_game_over(13, {}, DEFAULT)


def test_is_game_over_once_all_results_are_solved():
    assert is_game_over(1, {"a": result(36), "b": result(36)}, DEFAULT)
    assert not is_game_over(1, {"a": result(36), "b": result(0)}, DEFAULT)
