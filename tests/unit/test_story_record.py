"""The game told afterwards, from a crafted public record whose facts can be reasoned out."""

from __future__ import annotations

import math

from vpsleuth.engine import Answered, PublicRecord
from vpsleuth.rules import Ruleset, parse_question
from vpsleuth.services.story import record_story


def answered(text: str, answer: int, who: str) -> Answered:
    return Answered(parse_question(text), answer, who)


# Round 1: no red gem at A. Round 2: B holds all three red diamonds; C holds one yellow gem.
RECORD = PublicRecord(Ruleset(rounds=2), (
    (answered("A R", 0, "Ada"),),
    (answered("C Y", 1, "Ben"), answered("B R D", 3, "Ada")),
))


def all_deals() -> float:
    """log2 of the number of deals: 36! / (5!^7 * 1!)."""
    return math.log2(math.factorial(36) / math.factorial(5) ** 7)


def test_the_story_starts_from_every_possible_deal_and_ends_after_the_last_round():
    story = record_story(RECORD)
    assert story["after_round"] == 2
    assert abs(story["start_bits"] - all_deals()) < 1e-3
    assert [r["number"] for r in story["rounds"]] == [1, 2]


def test_no_red_at_a_reveals_exactly_the_share_of_deals_it_rules_out():
    first = record_story(RECORD)["rounds"][0]
    # Nine gems are red (3 kinds x 3 sizes); A's five all come from the other 27:
    # C(27,5) of its C(36,5) possible hands, whatever the rest of the deal.
    expected = math.log2(math.comb(36, 5) / math.comb(27, 5))
    assert abs(first["revealed_bits"] - expected) < 1e-3
    assert abs(first["questions"][0]["revealed_bits"] - expected) < 1e-3
    assert first["certain"] == 0 and first["newly_certain"] == []
    assert abs(first["bits_left"] - (all_deals() - expected)) < 1e-3


def test_three_red_diamonds_at_b_make_them_certain_in_round_two_because_of_that_answer():
    story = record_story(RECORD)
    second = story["rounds"][1]
    assert second["newly_certain"] == ["RD1", "RD2", "RD3"] and second["certain"] == 3
    gems = {g["gem"]: g for g in story["gems"]}
    for code in ("RD1", "RD2", "RD3"):
        assert gems[code]["certain_in_round"] == 2 and gems[code]["location"] == "B"
        # C's yellow answer is left out: it proves nothing about red diamonds.
        assert [(b["question"], b["answer"], b["asked_by"]) for b in gems[code]["because"]] \
            == [("B:RD", 3, "Ada")]
    assert gems["RP1"]["certain_in_round"] is None and gems["RP1"]["because"] == []


def test_each_question_shows_what_it_revealed_and_the_best_question_of_its_round():
    for round_ in record_story(RECORD)["rounds"]:
        best = round_["best"]
        assert best is not None and best["expected_bits"] > 0
        for q in round_["questions"]:
            # No question can be expected to reveal more than the best one of its round.
            assert q["expected_bits"] <= best["expected_bits"] + 1e-9
            assert q["revealed_bits"] >= 0
    rare = record_story(RECORD)["rounds"][1]["questions"][1]
    assert rare["text"] == "How many red diamonds does B hold?"
    assert rare["revealed_bits"] > rare["expected_bits"]  # a surprising answer


def test_out_of_time_the_costly_parts_are_left_out_and_the_story_says_so():
    story = record_story(RECORD, budget=0.0)
    assert story["complete"] is False
    second = story["rounds"][1]
    assert second["certain"] == 3 and second["newly_certain"] == ["RD1", "RD2", "RD3"]
    assert second["best"] is None
    assert all(q["revealed_bits"] is None for q in second["questions"])
    rd1 = next(g for g in story["gems"] if g["gem"] == "RD1")
    assert rd1["certain_in_round"] == 2 and rd1["because"] is None
    assert record_story(RECORD)["complete"] is True
