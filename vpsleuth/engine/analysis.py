"""What the public record proves: possible places, how much is secret, chances."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import product

from vpsleuth.rules import ATTRIBUTES, PLACEHOLDERS, Gem, Question, make_question

from .cpsat import decide_open_cells, spreader
from .exact import TooMany, exact, uniform_samples
from .model import GAME, Problem, Universe
from .pauses import without_collector
from .possible import possible_masks
from .record import Answered
from .sampling import Estimate, estimate
from .search import OutOfSteps, Searcher, State, TooManySolutions, all_solutions

# Seconds of CPU the engine's own search may take on a record before the cells it left open
# go to CP-SAT (cpsat.py): the median record takes a few hundredths, the rare hard one
# (interlocking answers, proofs over several locations) seconds where CP-SAT takes
# a fraction of one; CP-SAT's own start costs about a hundredth.
PATIENCE = 0.2
# Seconds an analysis may take in all, of which its counts and chances get what the places
# left and at least COUNT_LEAST; the shares of their time by which the exact count gives
# up and the estimate's probes stop (listing the distributions, when few are left, may
# take the rest): within 2 s on every record the benches meet, with a margin for the
# probe or the DP state under way at a deadline and for a loaded machine.
WITHIN, COUNT_LEAST, DP_SHARE, PROBE_SHARE = 1.4, 0.4, 0.4, 0.8
# When no probe has lived by the end of WITHIN, more are taken until one does, until
# this share of WITHIN after the call at the latest (then the count is unknown: 0 with
# an infinite error, which the callers say as such).
LAST_RESORT = 1.25


@dataclass(frozen=True)
class Analysis:
    """The consistent distributions, summed up.

    ``relative_error`` is 0.0 when ``exact``; otherwise the half-width of the
    estimate's 95% confidence interval divided by the estimate.
    """

    possible: dict[Gem, frozenset[str]]
    count: int | float
    exact: bool
    relative_error: float
    bits: float
    chances: dict[Gem, dict[str, float]]
    chances_exact: bool
    problem: Problem = field(repr=False, compare=False)
    estimate: Estimate | None = field(default=None, repr=False, compare=False)
    tallies: dict = field(default_factory=dict, repr=False, compare=False)  # answer_chances

    @property
    def unknown(self) -> bool:
        """Distributions agree, but no probe reached one in the time given: the count is
        unknown (0 with an infinite error), not zero."""
        return not self.exact and not self.count and any(self.possible.values())

    def certain(self) -> dict[Gem, str]:
        """The gems with exactly one possible place, and that place."""
        return {g: next(iter(p)) for g, p in self.possible.items() if len(p) == 1}

    def to_json(self) -> dict:
        """Plain JSON: gems by code, locations sorted, chances only where possible."""
        order = self.problem.universe.locations
        return {
            "possible": {g.code: [loc for loc in order if loc in p]
                         for g, p in self.possible.items()},
            "count": None if self.unknown else self.count,
            "exact": self.exact,
            "relative_error": None if self.unknown else self.relative_error,
            "bits": self.bits if self.count else None,
            "chances": {g.code: {loc: self.chances[g][loc] for loc in order
                                 if self.chances[g].get(loc)}
                        for g in self.possible},
            "chances_exact": self.chances_exact,
            "certain": {g.code: loc for g, loc in self.certain().items()},
        }


@without_collector
def analyse(answers: Iterable[Answered], *, samples: int = 100, seed: int = 0,
            universe: Universe = GAME, budget: int = 2000,
            enumerate_limit: int = 3000, patience: float | None = PATIENCE,
            within: float | None = WITHIN) -> Analysis:
    """Possible places (always exact), the number of consistent distributions and chances.

    The possible places as possible_places finds them (``patience``: see there).

    Counts and chances are exact while the dynamic programme needs at most
    ``budget`` states (see exact) or at most ``enumerate_limit`` distributions agree;
    else they are estimated from ``samples`` probes of Knuth's estimator.
    ``within``: seconds for the whole analysis; the counts get what the places
    left of them, COUNT_LEAST at least: the dynamic programme gives up at
    DP_SHARE of that time, the probes stop at PROBE_SHARE of it (once
    LEAST_PROBES are taken and one reached a distribution) or at its end
    (whatever they found; the stated error is measured from the probes taken),
    and listing every distribution at its end too. None: no deadline.
    """
    called = time.monotonic()
    problem = Problem.of(answers, universe)
    searcher = Searcher(problem)
    masks, _ = exact_masks(searcher, seed, patience)
    started = time.monotonic()
    gems, locations = universe.gems, universe.locations
    possible = _by_gem(universe, masks)
    if masks is not None:
        problem = problem.narrowed(masks)
        searcher = Searcher(problem)
    left = None if within is None else max(COUNT_LEAST, within - (started - called))

    def by(share: float) -> float | None:
        return None if left is None else started + share * left

    try:
        result = exact(problem, budget=budget, deadline=by(DP_SHARE))
    except TooMany:
        rough = _estimated(problem, searcher, possible, samples, seed, by(PROBE_SHARE),
                           by(1.0))
        if not rough.count and masks is not None:
            # No probe reached a distribution in its time, yet one exists (on the hardest
            # records most probes die, and a loaded machine fits fewer in): go on until
            # one does, the dead ones kept in the estimate, until LAST_RESORT at most.
            # Taking all `samples` again cost up to 13 s on a loaded machine.
            rough = _estimated(problem, searcher, possible, samples, seed,
                               time.monotonic(), None if within is None
                               else called + LAST_RESORT * within, before=rough.estimate)
        if rough.count > 3 * enumerate_limit:  # listing would likely give up: spare the time
            return rough
        try:
            leaves = all_solutions(searcher, enumerate_limit, by(1.0))
        except TooManySolutions:
            return rough
        return _from_leaves(problem, possible, [1.0] * len(leaves), leaves, len(leaves),
                            0.0, None)
    chances: dict[Gem, dict[str, float]] = {}
    for j, cls in enumerate(result.classes):
        size = cls.bit_count()
        for i, gem in enumerate(gems):
            if cls >> i & 1:
                chances[gem] = {loc: (result.placed[loc][j] / (size * result.count)
                                      if result.count else 0.0) for loc in locations}
    listed = None
    if 0 < result.count <= enumerate_limit:  # kept, so answer_chances reads them exactly
        try:
            leaves = all_solutions(searcher, enumerate_limit, by(1.0))
            listed = Estimate(float(result.count), 0.0, (1.0,) * len(leaves), tuple(leaves))
        except TooManySolutions:  # out of time: answer_chances tallies by the count instead
            pass
    return Analysis(possible, result.count, True, 0.0, _bits(result.count), chances, True,
                    problem, listed)


def _bits(count: float) -> float:
    return math.log2(count) if count > 0 else float("-inf")


def _estimated(problem: Problem, searcher: Searcher, possible: dict[Gem, frozenset[str]],
               samples: int, seed: int, deadline: float | None = None,
               last: float | None = None, before: Estimate | None = None) -> Analysis:
    est = estimate(searcher, searcher.root(), samples, seed, deadline, last, before)
    return _from_leaves(problem, possible, est.weights, est.leaves, est.count,
                        est.half_width / est.count if est.count else math.inf, est)


def _from_leaves(problem: Problem, possible: dict[Gem, frozenset[str]],
                 weights: Sequence[float], leaves: Sequence[State | None], count: int | float,
                 error: float, est: Estimate | None) -> Analysis:
    """Chances as the weighted shares of whole distributions (all of them, or samples)."""
    gems, locations = problem.universe.gems, problem.universe.locations
    total = sum(weights)
    chances = {g: dict.fromkeys(locations, 0.0) for g in gems}
    for w, leaf in zip(weights, leaves, strict=True):
        if leaf is None or not w:
            continue
        for j, mask in enumerate(leaf):
            for i, gem in enumerate(gems):
                if mask >> i & 1:
                    chances[gem][locations[j]] += w / total
    exact_ = est is None
    if exact_ and not count:
        count = 0
    return Analysis(possible, count, exact_, error, _bits(count), chances, exact_, problem,
                    est if est is not None else Estimate(float(count), 0.0, tuple(weights),
                                                         tuple(leaves)))


class Places(dict[Gem, frozenset[str]]):
    """Each gem's possible places, and how they were found.

    ``by``: "engine" (its own search decided every cell), "cp-sat" (the cells
    it left open after PATIENCE were handed over), or "propagation" (a bounded
    search ran out and propagation's places stand: every possible place,
    perhaps more); ``exact`` is False only for the last.
    """

    def __init__(self, places: dict[Gem, frozenset[str]], by: str):
        super().__init__(places)
        self.by = by

    @property
    def exact(self) -> bool:
        return self.by != "propagation"


def exact_masks(searcher: Searcher, seed: int = 0, patience: float | None = PATIENCE,
                ) -> tuple[Sequence[int] | None, str]:
    """The possible places per location (None: no distribution), and who decided them:
    the engine alone, or after ``patience`` seconds CP-SAT the cells left (None: never)."""
    handed = []

    def hand_over(root: State, seen: list[int]) -> Sequence[int] | None:
        handed.append(True)
        return decide_open_cells(searcher, root, seen, spreader(searcher, seed))

    if patience is None:
        return possible_masks(searcher, seed), "engine"
    masks = possible_masks(searcher, seed, patience=patience, hand_over=hand_over)
    return masks, "cp-sat" if handed else "engine"


@without_collector
def possible_places(answers: Iterable[Answered], *, universe: Universe = GAME,
                    steps: int | None = None, at_least: bool = False,
                    patience: float | None = PATIENCE) -> Places:
    """For each gem, every location some distribution agreeing with all answers puts it.

    Exact: the engine's search, and past ``patience`` seconds CP-SAT for the
    cells it left open (None: the engine alone, however long it takes).
    ``steps``: a bound on the engine's search instead, for callers that must
    not wait (nothing is handed over then); past it OutOfSteps is raised, or
    with ``at_least`` the places propagation leaves are returned (``by``
    "propagation", not ``exact``): every possible place, perhaps more.
    """
    searcher = Searcher(Problem.of(answers, universe))
    if steps is None:
        masks, by = exact_masks(searcher, patience=patience)
        return Places(_by_gem(universe, masks), by)
    try:
        masks = possible_masks(searcher, steps=steps)
    except OutOfSteps:
        if not at_least:
            raise
        return Places(_by_gem(universe, searcher.root()), "propagation")
    return Places(_by_gem(universe, masks), "engine")


def _by_gem(universe: Universe, masks: Sequence[int] | None) -> dict[Gem, frozenset[str]]:
    """Per-location gem masks as each gem's places (no places at all when None)."""
    return {g: frozenset(loc for loc, m in zip(universe.locations, masks or (), strict=False)
                         if m >> i & 1) for i, g in enumerate(universe.gems)}


def answer_chances(question: Question, analysis: Analysis) -> dict[int, float]:
    """How likely each answer to ``question`` is, uniformly over the consistent distributions.

    Exact when the analysis counted exactly and a count tallying the question's
    pattern stays within budget; else from the analysis's weighted samples, or
    from SAMPLED distributions drawn uniformly by the count (see ``_drawn``).
    """
    universe = analysis.problem.universe
    mask = universe.mask(question)
    est = analysis.estimate
    if est is None:
        if mask not in analysis.tallies:  # one DP per pattern serves all seven placeholders
            try:
                result = exact(analysis.problem, tally=(mask,), budget=20_000)
                analysis.tallies[mask] = (result.count, result.answers)
            except TooMany:
                analysis.tallies[mask] = _drawn(analysis).estimate
        got = analysis.tallies[mask]
        if isinstance(got, Estimate):
            est = got
        else:
            count, answers = got
            bucket = answers.get((mask, question.placeholder), {})
            return {a: w / count for a, w in sorted(bucket.items())} if count else {}
    where = universe.locations.index(question.placeholder)
    total = sum(est.weights)
    out: dict[int, float] = {}
    for w, leaf in zip(est.weights, est.leaves, strict=True):
        if leaf is not None:
            got = (leaf[where] & mask).bit_count()
            out[got] = out.get(got, 0.0) + w / total
    return dict(sorted(out.items()))


# Distributions drawn uniformly where the record was counted exactly but a tally per
# pattern would take too long: the chance of an answer then within about 0.01-0.02,
# a question's expected bits within a few hundredths (bench/deduction.py measures it).
SAMPLED = 2000


def _drawn(analysis: Analysis) -> Analysis:
    """The analysis with SAMPLED distributions drawn uniformly as its samples (kept)."""
    if "drawn" not in analysis.tallies:
        drawn = tuple(uniform_samples(analysis.problem, SAMPLED, random.Random(0)))
        analysis.tallies["drawn"] = replace(analysis, tallies={}, estimate=Estimate(
            float(analysis.count), 0.0, (1.0,) * len(drawn), drawn))
    return analysis.tallies["drawn"]


def information(question: Question, analysis: Analysis) -> float:
    """The expected number of bits the answer to ``question`` reveals."""
    return -sum(p * math.log2(p) for p in answer_chances(question, analysis).values() if p > 0)


def legal_questions() -> list[Question]:
    """Every legal question: 7 placeholders x (10 single attributes + 33 pairs)."""
    patterns = [[a] for a in ATTRIBUTES] + [
        [a, b] for a, b in product(ATTRIBUTES, ATTRIBUTES)
        if a.category != b.category and ATTRIBUTES.index(a) < ATTRIBUTES.index(b)]
    return [make_question(p, attrs) for p in PLACEHOLDERS for attrs in patterns]


@without_collector
def best_questions(answers: Iterable[Answered], k: int = 1, *,
                   analysis: Analysis | None = None) -> list[tuple[Question, float]]:
    """The ``k`` legal questions whose answers reveal the most, with their expected bits.

    The bits are exact where the distributions were listed, estimated where they
    were; where they were counted but too many to list, from SAMPLED of them
    drawn uniformly (a tally per pattern, 43 of them, would take seconds).
    """
    analysis = analysis or analyse(answers)
    if analysis.estimate is None and analysis.count:
        analysis = _drawn(analysis)
    places = analysis.problem.universe.locations
    scored = [(q, information(q, analysis)) for q in legal_questions() if q.placeholder in places]
    scored.sort(key=lambda qb: (-qb[1], qb[0].codes))
    return scored[:k]
