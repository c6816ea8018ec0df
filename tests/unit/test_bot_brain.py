"""The bots' brain: pure, legal turns at every level, and hard plays as it should."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from vpsleuth.bots import Me, decide
from vpsleuth.bots.brain import BENCH_LEVELS, best_questions, simple_places, tip_threshold
from vpsleuth.bots.sampler import sample
from vpsleuth.engine import Answered, PublicRecord, legal_questions
from vpsleuth.orders import parse_turn
from vpsleuth.rules import (
    GEM_BY_CODE,
    GEMS,
    LOCATIONS,
    Distribution,
    Question,
    Ruleset,
    deal,
    make_question,
    parse_attributes,
)

FORBIDDEN = ("vpsleuth.models", "vpsleuth.services", "vpsleuth.extensions", "vpsleuth.mail",
             "vpsleuth.web", "vpsleuth.api", "sqlalchemy", "flask_sqlalchemy")


def ask(text: str) -> Question:
    place, _, attrs = text.partition(" ")
    return make_question(place, parse_attributes(attrs))


def played_record(seed: int, rounds: int) -> PublicRecord:
    """A record of ``rounds`` rounds of four random questions answered from a real deal."""
    distribution, rng = deal(seed), random.Random(seed)
    answered = tuple(tuple(Answered(q, q.answer(distribution), "P")
                           for q in rng.sample(legal_questions(), 4)) for _ in range(rounds))
    return PublicRecord(Ruleset(), answered)


def test_the_brain_and_all_it_imports_reach_no_database_code():
    """Imported alone in a fresh interpreter, it pulls in no model, service or extension."""
    code = ("import sys, vpsleuth.bots.brain; "
            "print('\\n'.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "vpsleuth.bots.brain" in loaded and "vpsleuth.engine" in loaded
    assert [m for m in loaded if m.startswith(FORBIDDEN)] == []


@pytest.mark.parametrize("level", BENCH_LEVELS)
@pytest.mark.parametrize("rounds", [0, 3, 8])
def test_every_level_writes_a_turn_that_parses_with_a_legal_question(level, rounds):
    record = played_record(seed=rounds + 11, rounds=rounds)
    text = decide(record, Me("Robo"), level, random.Random(rounds))
    parsed = parse_turn(text)
    assert parsed.ok, (text, parsed.errors)
    assert parsed.change.changes_question and parsed.change.question in legal_questions()


def test_an_unknown_level_is_an_error():
    with pytest.raises(ValueError, match="no bot level"):
        decide(played_record(1, 0), Me("Robo"), "genius", random.Random(0))


# A holds all three red diamonds and two red pearls: its five gems are nearly known.
PINNED = PublicRecord(Ruleset(), ((Answered(ask("A red diamond"), 3),
                                   Answered(ask("A red"), 5), Answered(ask("A pearl"), 2)),))


def test_hard_asks_the_most_informative_question_not_one_about_a_known_hand():
    text = decide(PINNED, Me("Robo"), "hard", random.Random(0))
    question = parse_turn(text).change.question
    drawn = sample(PINNED.answers(), size=200, seed=1)
    assert question.placeholder != "A"
    assert drawn.information(question) > drawn.information(ask("A red diamond")) + 1.5
    assert question in best_questions(PINNED.answers(), 6)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_gem_the_record_proves_is_tipped(level):
    tips = parse_turn(decide(PINNED, Me("Robo"), level, random.Random(2))).change.tips
    if level == "easy":  # a few of the proven gems a round
        assert tips and all(tips[g] == "A" for g in tips)
        assert set(tips) <= {GEM_BY_CODE[c] for c in ("RD1", "RD2", "RD3")}
    else:
        assert all(tips[GEM_BY_CODE[c]] == "A" for c in ("RD1", "RD2", "RD3"))


def test_under_harsh_house_rules_hard_tips_only_what_is_certain():
    harsh = PublicRecord(Ruleset(points_wrong=-50), PINNED.rounds)
    tips = parse_turn(decide(harsh, Me("Robo"), "hard", random.Random(0))).change.tips
    assert {g.code for g in tips} == {"RD1", "RD2", "RD3"}


def test_the_rank_bonus_lowers_the_chance_a_tip_needs():
    rules = Ruleset(first_bonus_round=3)
    before = tip_threshold(PublicRecord(rules, ((),)))  # round 2 comes next
    bonus = tip_threshold(PublicRecord(rules, ((), ())))  # round 3, a bonus round
    assert before == pytest.approx(2 / 3) and bonus < before


def test_simple_reasoning_reads_zeros_and_full_counts_only():
    record = PublicRecord(Ruleset(), ((Answered(ask("B yellow opal"), 0),
                                       Answered(ask("C green diamond"), 3)),))
    places = simple_places(record)
    assert "B" not in places[GEM_BY_CODE["YO2"]] and len(places[GEM_BY_CODE["YO2"]]) == 7
    assert places[GEM_BY_CODE["GD2"]] == {"C"}
    assert len(places[GEM_BY_CODE["RP1"]]) == 8


def test_every_sampled_deal_agrees_with_every_answer():
    record = played_record(seed=4, rounds=6)
    drawn = sample(record.answers(), size=60, seed=3)
    assert len(drawn.deals) == 60
    for one in drawn.deals:
        placed = Distribution({gem: LOCATIONS[one[i]] for i, gem in enumerate(GEMS)})
        assert all(a.question.answer(placed) == a.answer for a in record.answers())
    assert all(abs(sum(c.values()) - 1) < 1e-9 for c in drawn.chances().values())


def test_a_record_no_deal_agrees_with_leaves_hard_playing_as_easy(monkeypatch):
    from vpsleuth.bots import brain

    def nothing(*args, **kwargs):
        raise brain.NoDeal("none found")

    monkeypatch.setattr(brain, "sample", nothing)
    brain._sample.cache_clear()
    record = PublicRecord(Ruleset(), ((Answered(ask("E opal"), 4),),))
    parsed = parse_turn(decide(record, Me("Robo"), "hard", random.Random(0)))
    assert parsed.ok and parsed.change.changes_question
    brain._sample.cache_clear()


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("rounds", [0, 2, 5, 9])
def test_two_bots_of_one_level_reading_the_same_record_ask_different_questions(level, rounds):
    record = played_record(seed=rounds + 30, rounds=rounds)
    asked = [parse_turn(decide(record, Me(name, seed=seat), level, random.Random(0)))
             .change.question for seat, name in enumerate(("Ada", "Babbage", "Clue"))]
    assert len(set(asked)) == 3, asked


def test_a_bot_plays_the_same_turn_again_in_the_same_state():
    record = played_record(seed=8, rounds=4)
    turns = {decide(record, Me("Ada", seed=1), "medium", random.Random(n)) for n in range(3)}
    assert len(turns) == 1


# B's five gems are green, and none is an opal.
GREENS = PublicRecord(Ruleset(), ((Answered(ask("B green"), 5),
                                   Answered(ask("B green opal"), 0)),))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_tips_where_the_games_own_scoring_makes_a_tip_worth_it(level):
    """Five of the six green diamonds and pearls are at B, so each is there with a
    chance of 5/6: worth a tip at +1/-1 (break-even 1/2), not at +1/-9 (0.9)."""
    def tipped(rules):
        record = PublicRecord(rules, GREENS.rounds)
        tips = parse_turn(decide(record, Me("Ada"), level, random.Random(0))).change.tips
        return {g.code for g, place in tips.items() if place == "B"}

    greens = {"GD1", "GD2", "GD3", "GP1", "GP2", "GP3"}
    assert tipped(Ruleset(points_wrong=-1)) & greens
    assert not tipped(Ruleset(points_wrong=-9)) & greens
