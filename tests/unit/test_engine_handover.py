"""The cells handed to CP-SAT, and the estimate's look-ahead: exact as brute force and the
CP-SAT oracle say, the true deal always possible, and checks that a wrong rule fails."""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from dataclasses import replace

import pytest
from cpsat_oracle import cpsat_possible
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_anneal import BOT32
from test_engine_brute import QUESTIONS as SMALL_QUESTIONS
from test_engine_brute import all_distributions, answer, random_record, small_universe
from test_engine_pigeonholes import DEEP, record

from vpsleuth.cli.engine import _text
from vpsleuth.engine import (
    Answered,
    OutOfSteps,
    analyse,
    legal_questions,
    possible_places,
    sampling,
)
from vpsleuth.engine.cpsat import decide_open_cells
from vpsleuth.engine.exact import exact
from vpsleuth.engine.model import Problem
from vpsleuth.engine.sampling import LEAST_PROBES, Estimate, estimate, probe
from vpsleuth.engine.search import Searcher
from vpsleuth.rules import GEMS, deal
from vpsleuth.services import story

QUESTIONS = legal_questions()


def brute_places(universe, answers) -> dict:
    consistent = [d for d in all_distributions(universe)
                  if all(answer(a.question, d) == a.answer for a in answers)]
    return {g: frozenset(d[g] for d in consistent) for g in universe.gems}


def as_masks(universe, places: dict) -> list[int]:
    return [sum(1 << i for i, g in enumerate(universe.gems) if loc in places[g])
            for loc in universe.locations]


def made_up_record(universe, seed: int) -> list[Answered]:
    """Questions with answers drawn at random, not from a deal: often no distribution fits."""
    rng = random.Random(seed)
    return [Answered(q, rng.randrange(3)) for q in rng.sample(SMALL_QUESTIONS, 2 + seed % 4)]


@pytest.mark.parametrize("seed", range(8))
def test_cells_handed_to_cp_sat_at_once_are_the_cells_brute_force_finds(seed):
    universe = small_universe(seed)
    for answers in (random_record(universe, seed, 2 + seed % 6)[1],
                    made_up_record(universe, seed)):
        handed = possible_places(answers, universe=universe, patience=0)
        assert handed == brute_places(universe, answers)
        assert handed.by == "cp-sat" or not any(handed.values())  # none fit: propagation says
        assert handed == possible_places(answers, universe=universe, patience=None)


def test_a_record_the_engine_proves_slowly_is_decided_by_cp_sat_as_the_oracle_decides_it():
    answers = record(BOT32)
    handed = possible_places(answers, patience=0)
    assert handed.by == "cp-sat" and handed.exact
    assert handed == cpsat_possible(answers)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 150))
def test_the_true_deal_is_always_possible_when_handed_over(seed, n):
    truth = deal(seed=seed)
    rng = random.Random(seed)
    answers = [Answered(q, q.answer(truth)) for q in rng.sample(QUESTIONS, n)]
    handed = possible_places(answers, patience=0)
    assert all(truth[g] in handed[g] for g in GEMS)
    assert handed == possible_places(answers, patience=None)  # the engine alone agrees


@pytest.mark.parametrize("seed", range(6))
def test_what_cp_sat_is_told_is_trusted_so_a_wrong_root_or_witness_shows(seed):
    # The hand-over asks nothing about cells outside the root (propagation ruled them
    # out) nor about cells witnessed: a cell wrongly dropped from the root, or wrongly
    # marked witnessed, comes out wrong, and the oracle comparisons above would fail.
    universe = small_universe(seed)
    _, answers = random_record(universe, seed, 2 + seed % 6)
    searcher = Searcher(Problem.of(answers, universe))
    truth = as_masks(universe, brute_places(universe, answers))
    root, seen = searcher.root(), [0] * len(truth)
    assert decide_open_cells(searcher, list(root), seen) == truth
    loc = next(i for i, m in enumerate(truth) if m)
    cell = truth[loc] & -truth[loc]
    narrowed = [m & ~cell if i == loc else m for i, m in enumerate(root)]
    assert decide_open_cells(searcher, narrowed, list(seen)) != truth
    impossible = [(i, root[i] & ~truth[i]) for i in range(len(root)) if root[i] & ~truth[i]]
    if impossible:  # propagation left a cell no distribution fills: claim it witnessed
        i, cells = impossible[0]
        claimed = [cells & -cells if j == i else 0 for j in range(len(root))]
        assert decide_open_cells(searcher, list(root), claimed) != truth


def test_a_bounded_search_says_it_fell_back_and_an_unbounded_one_that_it_did_not():
    answers = record(DEEP)
    rough = possible_places(answers, steps=3, at_least=True)
    assert rough.by == "propagation" and not rough.exact
    with pytest.raises(OutOfSteps):
        possible_places(answers, steps=3)
    decided = possible_places(answers, patience=0)
    assert decided.exact and all(decided[g] <= rough[g] for g in GEMS) and decided != rough


def small_problem(seed: int) -> tuple[Problem, Searcher, int]:
    universe = small_universe(seed)
    _, answers = random_record(universe, seed, 2 + seed % 4)
    problem = Problem.of(answers, universe)
    return problem, Searcher(problem), exact(problem).count


class Overeager(Searcher):
    """A wrong pruning rule: it also refutes every state with ``gem`` fixed at ``at``."""

    def __init__(self, problem: Problem, gem: int, at: int):
        super().__init__(problem)
        self.gem, self.at = 1 << gem, at

    def propagate(self, state):
        got = super().propagate(state)
        if got is not None and got[self.at] & self.gem and not any(
                p & self.gem for j, p in enumerate(got) if j != self.at):
            return None
        return got


def mean_and_error(searcher: Searcher, root, seed: int, n: int = 300) -> tuple[float, float]:
    weights = [probe(searcher, root, random.Random(seed * 1000 + i))[0] for i in range(n)]
    return statistics.fmean(weights), statistics.stdev(weights) / n ** 0.5


@pytest.mark.parametrize("seed", [0, 2, 5, 9])
def test_probes_that_look_ahead_are_unbiased_and_a_wrong_pruning_shows(seed):
    problem, searcher, count = small_problem(seed)
    mean, error = mean_and_error(searcher, searcher.root(), seed)
    assert abs(mean - count) <= 4 * error + 1e-9 * count
    # The mutant refutes gem 0 at its likeliest place: at least a third of the
    # distributions here, so an estimate that trusted it would be far too low.
    counted, locations = exact(problem), problem.universe.locations
    cls = next(j for j, c in enumerate(counted.classes) if c & 1)  # gem 0's class
    at = max(range(len(locations)), key=lambda i: counted.placed[locations[i]][cls])
    with_it = [m if j == at else m & ~1 for j, m in enumerate(searcher.root())]
    dropped = exact(problem.narrowed(with_it)).count if searcher.propagate(with_it) else 0
    assert 3 * dropped >= count
    wrong, wrong_error = mean_and_error(Overeager(problem, 0, at), searcher.root(), seed)
    assert count - wrong > 4 * wrong_error


def test_an_estimate_past_its_deadline_stops_after_the_least_probes_and_past_the_last_at_two():
    _, searcher, _ = small_problem(3)
    root = searcher.root()
    late = estimate(searcher, root, 100, seed=1, deadline=0.0)  # long past (monotonic)
    assert len(late.weights) == LEAST_PROBES and any(late.weights)
    assert len(estimate(searcher, root, 100, seed=1, deadline=0.0, last=0.0).weights) == 2
    assert len(estimate(searcher, root, 100, seed=1).weights) == 100


def test_an_estimate_goes_on_from_dead_probes_until_one_lives():
    _, searcher, count = small_problem(3)
    root = searcher.root()
    dead = Estimate(0.0, math.inf, (0.0,) * 4, (None,) * 4)
    went_on = estimate(searcher, root, 100, seed=1, deadline=0.0, before=dead)
    weights = went_on.weights
    assert weights[:4] == dead.weights  # the dead probes count, so the mean is not inflated
    first_alive = next(i for i, w in enumerate(weights) if w)
    assert len(weights) == max(LEAST_PROBES, first_alive + 1)
    assert went_on.count == pytest.approx(sum(weights) / len(weights))
    assert went_on.half_width < math.inf and went_on.count <= 100 * count


def test_with_none_alive_an_estimate_takes_more_than_its_samples_until_the_last_moment(
        monkeypatch):
    """On the hardest records one probe in a hundred or more lives: with none alive after
    ``samples`` probes and ``last`` not past, probes go on until one lives; without a
    ``last`` (no deadline), ``samples`` stay the most."""
    _, searcher, _ = small_problem(3)
    root, calls = searcher.root(), []

    def dies_150_times(searcher, root, rng, order):
        calls.append(order)
        return (1.0, root) if len(calls) > 150 else (0.0, None)

    monkeypatch.setattr(sampling, "probe", dies_150_times)
    went_on = estimate(searcher, root, 100, seed=1, deadline=time.monotonic() + 60,
                       last=time.monotonic() + 60)
    assert len(went_on.weights) == 151 and went_on.count == pytest.approx(1 / 151)
    # The samples fill the tightest location first; those past them, the widest.
    assert calls == [Searcher.tightest] * 100 + [Searcher.widest] * 51
    calls.clear()
    dead = Estimate(0.0, math.inf, (0.0,) * 4, (None,) * 4)
    estimate(searcher, root, 100, seed=1, deadline=0.0, before=dead)
    assert set(calls) == {Searcher.widest}  # going on from probes that all died
    calls.clear()
    assert len(estimate(searcher, root, 100, seed=1).weights) == 100
    calls.clear()
    past = estimate(searcher, root, 100, seed=1, deadline=0.0, last=time.monotonic() - 1)
    assert len(past.weights) == 2 and past.count == 0  # unknown: analyse says so


def test_an_unknown_count_is_said_as_unknown_never_as_no_distribution(monkeypatch):
    """No probe lived in the time given: the count is unknown, not zero. The JSON says
    null (never an Infinity, which is not JSON), the CLI says why, and the story, a
    job's, analyses such a record again with more time."""
    answers = record(BOT32)
    known = analyse(answers)
    unknown = replace(known, count=0.0, exact=False, relative_error=math.inf)
    assert unknown.unknown and not known.unknown
    assert not replace(known, possible={g: frozenset() for g in known.possible},
                       count=0, exact=True).unknown  # none agrees: that is known
    data = json.loads(json.dumps(unknown.to_json(), allow_nan=False))
    assert (data["count"], data["relative_error"], data["exact"]) == (None, None, False)
    said = _text(unknown, 8)
    assert "no distribution agrees" not in said and "too few random walks" in said
    given = []

    def analysed(answers, within=None):
        given.append(within)
        return unknown if within is None else known

    monkeypatch.setattr(story, "analyse", analysed)
    assert story._analysed(answers) is known and given == [None, story.UNKNOWN_WITHIN]
