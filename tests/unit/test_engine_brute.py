"""The engine against brute force on reduced decks: every distribution enumerated."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest

from vpsleuth.engine import Answered, Universe, analyse, answer_chances, possible_places
from vpsleuth.engine.analysis import legal_questions
from vpsleuth.rules import GEMS

QUESTIONS = [q for q in legal_questions() if q.placeholder in "ABC"]


def small_universe(seed: int) -> Universe:
    gems = tuple(random.Random(seed).sample(GEMS, 9))
    return Universe(gems, (("A", 3), ("B", 3), ("C", 2), ("X", 1)))


def all_distributions(universe: Universe) -> list[dict]:
    slots = [loc for loc, cap in universe.capacities for _ in range(cap)]
    return [dict(zip(universe.gems, p, strict=True)) for p in sorted(set(permutations(slots)))]


def answer(question, placement) -> int:
    return sum(1 for g, loc in placement.items() if loc == question.placeholder
               and all(g.has(a) for a in question.attributes))


def random_record(universe: Universe, seed: int, n: int) -> tuple[dict, list[Answered]]:
    rng = random.Random(seed)
    truth = rng.choice(all_distributions(universe))
    return truth, [Answered(q, answer(q, truth)) for q in rng.sample(QUESTIONS, n)]


@pytest.mark.parametrize("seed", range(12))
def test_possible_places_count_and_chances_match_brute_force(seed):
    universe = small_universe(seed)
    truth, record = random_record(universe, seed, 2 + seed % 6)
    consistent = [d for d in all_distributions(universe)
                  if all(answer(a.question, d) == a.answer for a in record)]
    analysis = analyse(record, universe=universe)
    assert analysis.exact and analysis.count == len(consistent)
    expected = {g: frozenset(d[g] for d in consistent) for g in universe.gems}
    assert analysis.possible == expected
    assert possible_places(record, universe=universe) == expected
    for g in universe.gems:
        shares = Counter(d[g] for d in consistent)
        for loc in universe.locations:
            assert analysis.chances[g][loc] == pytest.approx(shares[loc] / len(consistent))
    listed = analyse(record, universe=universe, budget=0, enumerate_limit=6000)  # listing
    assert listed.exact and listed.count == len(consistent)
    for g in universe.gems:
        for loc in universe.locations:
            assert listed.chances[g][loc] == pytest.approx(analysis.chances[g][loc])
    question = QUESTIONS[seed * 7 % len(QUESTIONS)]
    answers = Counter(answer(question, d) for d in consistent)
    expected_answers = {a: Fraction(c, len(consistent)) for a, c in answers.items()}
    assert answer_chances(question, analysis) == pytest.approx(expected_answers)
    by_dp = analyse(record, universe=universe, enumerate_limit=0)  # the DP tallies instead
    assert answer_chances(question, by_dp) == pytest.approx(expected_answers)


def test_the_estimate_is_near_the_exact_count_on_a_small_deck():
    universe = small_universe(99)
    _, record = random_record(universe, 99, 2)
    exact = analyse(record, universe=universe)
    rough = analyse(record, universe=universe, budget=0, enumerate_limit=0, samples=400)
    assert not rough.exact and rough.relative_error > 0
    assert abs(rough.count - exact.count) <= 3 * rough.relative_error * rough.count
    assert rough.possible == exact.possible
