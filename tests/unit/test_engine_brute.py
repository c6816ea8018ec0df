"""The engine against brute force on reduced decks: every distribution enumerated."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest

from vpsleuth.engine import (
    Answered,
    Universe,
    analyse,
    answer_chances,
    best_questions,
    possible_places,
)
from vpsleuth.engine.analysis import legal_questions
from vpsleuth.engine.exact import uniform_samples
from vpsleuth.engine.model import Problem
from vpsleuth.rules import GEMS

QUESTIONS = [q for q in legal_questions() if q.placeholder in "ABC"]
# analyse(..., within=None) throughout: what is counted and listed here must not depend on
# how busy the machine is (analyse's own deadlines stop counting and listing in time).


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
    analysis = analyse(record, universe=universe, within=None)
    assert analysis.exact and analysis.count == len(consistent)
    expected = {g: frozenset(d[g] for d in consistent) for g in universe.gems}
    assert analysis.possible == expected
    assert possible_places(record, universe=universe) == expected
    for g in universe.gems:
        shares = Counter(d[g] for d in consistent)
        for loc in universe.locations:
            assert analysis.chances[g][loc] == pytest.approx(shares[loc] / len(consistent))
    listed = analyse(record, universe=universe, budget=0, enumerate_limit=6000,  # listing
                     within=None)
    assert listed.exact and listed.count == len(consistent)
    for g in universe.gems:
        for loc in universe.locations:
            assert listed.chances[g][loc] == pytest.approx(analysis.chances[g][loc])
    question = QUESTIONS[seed * 7 % len(QUESTIONS)]
    answers = Counter(answer(question, d) for d in consistent)
    expected_answers = {a: Fraction(c, len(consistent)) for a, c in answers.items()}
    assert answer_chances(question, analysis) == pytest.approx(expected_answers)
    by_dp = analyse(record, universe=universe, enumerate_limit=0,  # the DP tallies instead
                    within=None)
    assert answer_chances(question, by_dp) == pytest.approx(expected_answers)


def test_the_estimate_is_near_the_exact_count_on_a_small_deck():
    universe = small_universe(99)
    _, record = random_record(universe, 99, 2)
    exact = analyse(record, universe=universe, within=None)
    rough = analyse(record, universe=universe, budget=0, enumerate_limit=0, samples=400,
                    within=None)
    assert not rough.exact and rough.relative_error > 0
    assert abs(rough.count - exact.count) <= 3 * rough.relative_error * rough.count
    assert rough.possible == exact.possible


def entropy(counts: Counter) -> float:
    total = sum(counts.values())
    return -sum(c / total * math.log2(c / total) for c in counts.values() if c)


@pytest.mark.parametrize("seed", [3, 7, 10])
def test_uniform_samples_draw_every_consistent_distribution_equally_often(seed):
    universe = small_universe(seed)
    _, record = random_record(universe, seed, 2)
    consistent = [d for d in all_distributions(universe)
                  if all(answer(a.question, d) == a.answer for a in record)]
    problem = Problem.of(record, universe)
    draws = 60 * len(consistent)
    drawn = uniform_samples(problem, draws, random.Random(seed))
    seen = Counter(tuple(sorted((g.code, universe.locations[i]) for i, mask in enumerate(leaf)
                                for j, g in enumerate(universe.gems) if mask >> j & 1))
                   for leaf in drawn)
    expected = {tuple(sorted((g.code, loc) for g, loc in d.items())) for d in consistent}
    assert set(seen) == expected  # every one drawn, none inconsistent
    # Pearson's chi-square against uniform: far beyond its degrees of freedom if skewed.
    df = len(consistent) - 1
    chi2 = sum((seen[d] - 60) ** 2 / 60 for d in expected)
    assert chi2 < df + 5 * math.sqrt(2 * df)


def test_best_questions_from_uniform_samples_pick_a_question_near_the_most_revealing():
    universe = small_universe(5)
    _, record = random_record(universe, 5, 2)
    consistent = [d for d in all_distributions(universe)
                  if all(answer(a.question, d) == a.answer for a in record)]
    counted = analyse(record, universe=universe, enumerate_limit=0,  # counted, not listed
                      within=None)
    assert counted.exact and counted.estimate is None and len(consistent) > 100
    truth = {q.codes: entropy(Counter(answer(q, d) for d in consistent)) for q in QUESTIONS}
    ranked = [(q, b) for q, b in best_questions(record, 40, analysis=counted)
              if q.placeholder in "ABC"]
    assert truth[ranked[0][0].codes] >= max(truth.values()) - 0.1
    assert all(abs(b - truth[q.codes]) < 0.1 for q, b in ranked)
