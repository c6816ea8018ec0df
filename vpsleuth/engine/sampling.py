"""Estimates where exact counting is out of reach: Knuth's estimator.

A probe walks from the root of the propagating search to a leaf, choosing
each time uniformly among the places of the branching gem that survive
propagation, and weighs the distribution it reaches by the product of the
numbers of choices. The mean weight is an unbiased estimate of the number of
distributions; the share of weight putting a gem somewhere estimates its
chance. The error is measured from the weights' sample variance.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .search import Searcher, State


@dataclass(frozen=True)
class Estimate:
    count: float
    half_width: float                    # 95% confidence half-width of count
    weights: tuple[float, ...]           # per probe (0.0 for a dead end)
    leaves: tuple[State | None, ...]     # per probe: the distribution reached


def probe(searcher: Searcher, root: State, rng: random.Random) -> tuple[float, State | None]:
    """One random descent: (weight, distribution) or (0.0, None) at a dead end."""
    state, weight = root, 1.0
    while True:
        gem = searcher.branch_gem(state)
        if gem is None:
            return weight, state
        kids = searcher.children(state, gem)
        if not kids:
            return 0.0, None
        weight *= len(kids)
        state = rng.choice(kids)[1]


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
