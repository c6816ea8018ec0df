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
from dataclasses import dataclass
from math import comb, prod

from .local import bits, local_fillings
from .search import Searcher, State


@dataclass(frozen=True)
class Estimate:
    count: float
    half_width: float                    # 95% confidence half-width of count
    weights: tuple[float, ...]           # per probe (0.0 for a dead end)
    leaves: tuple[State | None, ...]     # per probe: the distribution reached


def probe(searcher: Searcher, root: State, rng: random.Random) -> tuple[float, State | None]:
    """One random descent: (weight, distribution) or (0.0, None) at a dead end.

    Location by location (the one with the fewest choices first): a set of
    gems the location's own constraints allow is drawn uniformly among all
    such sets, and the weight multiplied by their number.
    """
    state: State | None = root
    weight, filled = 1.0, 0
    while state is not None:
        fixed = searcher.fixed(state)
        best = searcher.tightest(state, fixed, filled)
        if best is None:
            return weight, state
        masks, low, found = local_fillings(state[best], fixed[best], searcher.local[best],
                                           searcher.capacity[best])
        ways = [prod(comb(m.bit_count() - lo, x - lo) for m, lo, x in zip(masks, low, k,
                                                                             strict=True))
                for k in found]
        if not ways:
            return 0.0, None
        weight *= sum(ways)
        k = rng.choices(found, weights=ways)[0]
        chosen = 0
        for m, x in zip(masks, k, strict=True):
            sure = m & fixed[best]
            chosen |= sure | sum(rng.sample(bits(m & ~sure), x - sure.bit_count()))
        state = searcher.propagate([chosen if j == best else q & ~chosen
                                    for j, q in enumerate(state)])
        filled |= 1 << best
    return 0.0, None


def estimate(searcher: Searcher, root: State, samples: int, seed: int = 0) -> Estimate:
    """Knuth's estimate of the number of distributions below ``root``."""
    rng = random.Random(seed)
    weights, leaves = [], []
    for _ in range(samples):
        w, leaf = probe(searcher, root, rng)
        weights.append(w)
        leaves.append(leaf)
    n = len(weights)
    mean = sum(weights) / n
    var = sum((w - mean) ** 2 for w in weights) / (n - 1) if n > 1 else math.inf
    return Estimate(mean, 1.96 * math.sqrt(var / n), tuple(weights), tuple(leaves))
