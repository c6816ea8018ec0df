"""The engine on the real 36-gem deck against CP-SAT, and on hypothesis-made records."""

from __future__ import annotations

import random

import pytest
from cpsat_oracle import cpsat_enumerate, cpsat_possible
from hypothesis import given, settings
from hypothesis import strategies as st

from vpsleuth.engine import (
    Answered,
    analyse,
    answer_chances,
    best_questions,
    information,
    legal_questions,
    possible_places,
)
from vpsleuth.rules import GEMS, deal

QUESTIONS = legal_questions()
# analyse(..., within=None) throughout: what is counted must not depend on how busy the
# machine is (analyse's own deadlines stop counting in time).


def record_from_deal(seed: int, n: int) -> tuple[object, list[Answered]]:
    """``n`` random legal questions, answered by a random deal."""
    truth = deal(seed=seed)
    rng = random.Random(seed)
    asked = [rng.choice(QUESTIONS) for _ in range(n)]
    return truth, [Answered(q, q.answer(truth)) for q in asked]


@pytest.mark.parametrize(("seed", "n"), [(7, 4), (8, 20), (9, 45), (3, 90), (4, 130)])
def test_possible_places_are_the_cells_cp_sat_finds_feasible(seed, n):
    _, record = record_from_deal(seed, n)
    assert possible_places(record) == cpsat_possible(record)


@pytest.mark.parametrize(("seed", "n"), [(5, 120), (6, 150)])
def test_count_and_chances_match_cp_sat_listing_every_solution(seed, n):
    _, record = record_from_deal(seed, n)
    listed = cpsat_enumerate(record, limit=5000)
    assert listed is not None
    count, places = listed
    analysis = analyse(record, within=None)
    assert analysis.exact and analysis.count == count
    for g in GEMS:
        for loc, share in analysis.chances[g].items():
            assert share == pytest.approx(places[g, loc] / count)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(70, 240))
def test_the_true_deal_is_always_possible(seed, n):
    truth, record = record_from_deal(seed, n)
    possible = possible_places(record)
    assert all(truth[g] in possible[g] for g in GEMS)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(120, 240))
def test_at_least_the_true_deal_is_counted(seed, n):
    truth, record = record_from_deal(seed, n)
    analysis = analyse(record, samples=20, within=None)
    assert analysis.count >= 1
    assert all(analysis.chances[g][truth[g]] > 0 for g in GEMS) or not analysis.chances_exact
    assert set(analysis.certain()) <= set(GEMS)
    assert all(truth[g] == loc for g, loc in analysis.certain().items())


def test_best_questions_rank_by_expected_bits_and_a_solved_record_reveals_nothing():
    truth, record = record_from_deal(8, 100)
    analysis = analyse(record, within=None)
    ranked = best_questions(record, 5, analysis=analysis)
    bits = [b for _, b in ranked]
    assert bits == sorted(bits, reverse=True) and bits[0] > 0
    assert all(information(q, analysis) <= bits[0] + 1e-12 for q in QUESTIONS[::7])
    for q, b in ranked:
        chances = answer_chances(q, analysis)
        assert sum(chances.values()) == pytest.approx(1) and q.answer(truth) in chances
        assert information(q, analysis) == pytest.approx(b)
    _, solved = record_from_deal(8, 400)
    assert analyse(solved, within=None).count == 1
    assert best_questions(solved, 1)[0][1] == 0
