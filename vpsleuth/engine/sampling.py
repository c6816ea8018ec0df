"""Estimates where exact counting is out of reach: Knuth's estimator.

A probe walks from the root of the propagating search to a leaf, filling one
location at a time with a set of gems drawn uniformly among those its own
constraints allow, and weighs the distribution it reaches by the product of
the numbers of choices (0 at a dead end). The mean weight is an unbiased estimate of the number of
distributions; the share of weight putting a gem somewhere estimates its
chance. The error is measured from the weights' sample variance.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import comb, prod

from .local import bits, gem_fillings, local_fillings
from .search import Searcher, State

# Sets of gems a location may take up to which a probe propagates them all before drawing.
# (Drawing several of many sets and going on from one that lives, weighed by the share
# that lived, is unbiased too, but on the hard bot's records it cost more time than it
# saved probes: 4 draws a location, 3x the time a probe, about as few alive.)
LOOKAHEAD = 24


@dataclass(frozen=True)
class Estimate:
    count: float
    half_width: float                    # 95% confidence half-width of count
    weights: tuple[float, ...]           # per probe (0.0 for a dead end)
    leaves: tuple[State | None, ...]     # per probe: the distribution reached


# Which location a probe fills next: Searcher.tightest (the first order) or
# Searcher.widest (once every probe has died; see there).
Order = Callable[[Searcher, State, list[int], int], int | None]


def probe(searcher: Searcher, root: State, rng: random.Random,
          order: Order = Searcher.tightest) -> tuple[float, State | None]:
    """One random descent: (weight, distribution) or (0.0, None) at a dead end.

    Location by location (in ``order``: the fewest choices first, or the most): a set of
    gems the location's own constraints allow is drawn uniformly among all
    such sets, and the weight multiplied by their number. Where there are at
    most LOOKAHEAD such sets, each is propagated first and the draw is among
    those that live (the weight multiplied by their number): still unbiased, as
    a set propagation refutes leads to no distribution, and fewer probes die.
    """
    state: State | None = root
    weight, filled = 1.0, 0
    while state is not None:
        fixed = searcher.fixed(state)
        best = order(searcher, state, fixed, filled)
        if best is None:
            return weight, state
        masks, low, found = local_fillings(state[best], fixed[best], searcher.local[best],
                                           searcher.capacity[best])
        ways = [prod(comb(m.bit_count() - lo, x - lo) for m, lo, x in zip(masks, low, k,
                                                                             strict=True))
                for k in found]
        if not ways:
            return 0.0, None
        filled |= 1 << best
        if sum(ways) <= LOOKAHEAD:  # few sets: draw among those propagation lets live
            alive = [child for chosen in gem_fillings(state[best], fixed[best],
                                                      searcher.local[best],
                                                      searcher.capacity[best])
                     if (child := searcher.propagate([chosen if j == best else q & ~chosen
                                                      for j, q in enumerate(state)]))
                     is not None]
            if not alive:
                return 0.0, None
            weight *= len(alive)
            state = rng.choice(alive)
            continue
        weight *= sum(ways)
        k = rng.choices(found, weights=ways)[0]
        chosen = 0
        for m, x in zip(masks, k, strict=True):
            sure = m & fixed[best]
            chosen |= sure | sum(rng.sample(bits(m & ~sure), x - sure.bit_count()))
        state = searcher.propagate([chosen if j == best else q & ~chosen
                                    for j, q in enumerate(state)])
    return 0.0, None


# Probes taken past the deadline (but not past the last moment): fewer make the sample
# variance, and so the stated error, little more than a guess.
LEAST_PROBES = 10


def estimate(searcher: Searcher, root: State, samples: int, seed: int = 0,
             deadline: float | None = None, last: float | None = None,
             before: Estimate | None = None) -> Estimate:
    """Knuth's estimate of the number of distributions below ``root``, from ``samples``
    probes, or fewer once time.monotonic() is past ``deadline`` (LEAST_PROBES taken, one
    of them alive) or past ``last`` (two taken, whatever they found); more while none
    has lived and ``last`` is not past (on the hardest records one probe in a hundred or
    more lives, and a probe may cost a few thousandths). The stated half-width is
    measured from the probes taken, so it widens with fewer; with none alive the count
    is 0 (and analyse's relative error infinite: the count unknown).

    ``before``: an estimate of the same root to go on from: its probes count, and
    ``samples`` more may be taken, drawn afresh (not the ones it drew again)."""
    weights = list(before.weights) if before is not None else []
    leaves = list(before.leaves) if before is not None else []
    rng = random.Random(seed + 7919 * len(weights))
    drawn = 0
    dead_before = before is not None and not any(before.weights)
    while drawn < samples or (last is not None and not any(weights)
                              and time.monotonic() <= last):
        # Past the samples with none alive, or going on from probes that all died: the
        # widest location first, where fewer die (see Searcher.widest).
        order = Searcher.widest if dead_before or drawn >= samples else Searcher.tightest
        drawn += 1
        taken = len(weights)
        if deadline is not None and taken >= 2:
            now = time.monotonic()
            if last is not None and now > last:
                break
            if now > deadline and taken >= LEAST_PROBES and any(weights):
                break
        w, leaf = probe(searcher, root, rng, order)
        weights.append(w)
        leaves.append(leaf)
    n = len(weights)
    mean = sum(weights) / n
    var = sum((w - mean) ** 2 for w in weights) / (n - 1) if n > 1 else math.inf
    return Estimate(mean, 1.96 * math.sqrt(var / n), tuple(weights), tuple(leaves))
