"""Exchanges of gems keep every answer: each distribution they reach is a witness."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vpsleuth.engine import Answered, legal_questions
from vpsleuth.engine.model import GAME, Problem
from vpsleuth.engine.possible import Swapper
from vpsleuth.engine.search import Searcher
from vpsleuth.rules import GEMS, Distribution, deal

QUESTIONS = legal_questions()


def as_state(truth: Distribution) -> list[int]:
    return [sum(1 << i for i, g in enumerate(GEMS) if truth[g] == loc) for loc in GAME.locations]


def as_distribution(state: list[int]) -> Distribution:
    return Distribution({g: loc for i, g in enumerate(GEMS)
                         for loc, p in zip(GAME.locations, state, strict=True) if p >> i & 1})


def spread_from_truth(seed: int, n: int) -> tuple[list[Answered], Distribution, list[int]]:
    truth, rng = deal(seed=seed), random.Random(seed)
    record = [Answered(q, q.answer(truth)) for q in rng.sample(QUESTIONS, n)]
    seen = [0] * len(GAME.locations)
    reached = Swapper(Searcher(Problem.of(record))).spread(as_state(truth), seen, rng)
    return record, as_distribution(reached), seen


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(0, 120))
def test_every_distribution_reached_answers_every_question_as_the_deal_did(seed, n):
    record, reached, seen = spread_from_truth(seed, n)
    assert all(a.question.answer(reached) == a.answer for a in record)
    for loc, mask in zip(GAME.locations, seen, strict=True):  # the end is among the seen
        assert all(mask >> i & 1 for i, g in enumerate(GEMS) if reached[g] == loc)


@pytest.mark.parametrize("n", [0, 4, 12])
def test_early_in_a_game_exchanges_alone_witness_nearly_every_cell(n):
    record, _, seen = spread_from_truth(7, n)
    witnessed = sum(mask.bit_count() for mask in seen)
    assert witnessed >= 200, witnessed  # of 288; the deal alone witnesses 36
