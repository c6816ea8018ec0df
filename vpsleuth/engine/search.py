"""A propagating search over the distributions, and the exact possible places.

The state is, per location, the bitmask of gems that may still lie there. A
gem is fixed at a location when no other location may take it. Propagation
per constraint "exactly ``a`` of ``S`` at ``L``" (the capacities are such
constraints too, over all gems): when ``a`` are fixed, the others of ``S``
leave ``L``; when only ``a`` may be there, they are fixed there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .model import Problem

State = list[int]  # per location index: gems that may lie there


class Searcher:
    """The constraints of a problem, prepared for propagation by bitmask."""

    def __init__(self, problem: Problem):
        self.problem = problem
        universe = problem.universe
        self.n = len(universe.gems)
        self.full = (1 << self.n) - 1
        self.locations = universe.locations
        index = {loc: i for i, loc in enumerate(self.locations)}
        rules: list[tuple[int, int, int]] = [
            (index[loc], self.full, cap) for loc, cap in universe.capacities]
        for con in problem.constraints:
            rules.append((index[con.location], con.mask, con.count))
        self.rules = rules

    def root(self) -> State | None:
        """The propagated start state, or None when no distribution fits."""
        return self.propagate([self.full] * len(self.locations))

    def fixed(self, state: State) -> list[int]:
        out = []
        for i, p in enumerate(state):
            others = 0
            for j, q in enumerate(state):
                if j != i:
                    others |= q
            out.append(p & ~others)
        return out

    def propagate(self, state: State) -> State | None:
        """Narrow ``state`` (a copy is returned) to a fixpoint; None on contradiction."""
        state = list(state)
        full = self.full
        while True:
            union = 0
            for p in state:
                union |= p
            if union != full:
                return None
            fixed = self.fixed(state)
            changed = False
            for loc, mask, need in self.rules:
                may = state[loc] & mask
                sure = fixed[loc] & mask
                n_may, n_sure = may.bit_count(), sure.bit_count()
                if n_sure > need or n_may < need:
                    return None
                if n_may == n_sure:
                    continue
                if n_sure == need:
                    state[loc] &= ~(may & ~sure)
                    changed = True
                elif n_may == need:
                    for j in range(len(state)):
                        if j != loc:
                            state[j] &= ~may
                    fixed = self.fixed(state)
                    changed = True
            if not changed:
                return state

    def branch_gem(self, state: State) -> int | None:
        """The unfixed gem with the fewest places left (None when all are fixed)."""
        best, best_n = None, 99
        for g in range(self.n):
            bit = 1 << g
            n = sum(1 for p in state if p & bit)
            if 1 < n < best_n:
                best, best_n = g, n
                if n == 2:
                    break
        return best

    def children(self, state: State, gem: int) -> list[tuple[int, State]]:
        """(location, propagated state) for every place of ``gem`` that does not fail at once."""
        bit = 1 << gem
        out = []
        for i, p in enumerate(state):
            if p & bit:
                child = [q if j == i else q & ~bit for j, q in enumerate(state)]
                got = self.propagate(child)
                if got is not None:
                    out.append((i, got))
        return out

    def solve(self, state: State, rng: random.Random) -> State | None:
        """One complete distribution below ``state`` (depth first, random order), or None."""
        gem = self.branch_gem(state)
        if gem is None:
            return state
        bit = 1 << gem
        places = [i for i, p in enumerate(state) if p & bit]
        rng.shuffle(places)
        for i in places:
            child = self.propagate([q if j == i else q & ~bit for j, q in enumerate(state)])
            if child is not None:
                found = self.solve(child, rng)
                if found is not None:
                    return found
        return None


def possible_masks(searcher: Searcher, seed: int = 0) -> Sequence[int] | None:
    """Per location the gems some whole distribution puts there (None: no distribution).

    Every solution found witnesses all its cells; a cell not yet witnessed is
    searched for with the gem forced there, and dropped when none exists.
    """
    rng = random.Random(seed)
    root = searcher.root()
    if root is None:
        return None
    seen = [0] * len(root)
    while True:
        todo = [(i, p & ~seen[i]) for i, p in enumerate(root) if p & ~seen[i]]
        if not todo:
            return seen
        i, cells = todo[0]
        bit = cells & -cells
        start = searcher.propagate([q if j == i else q & ~bit for j, q in enumerate(root)])
        found = searcher.solve(start, rng) if start is not None else None
        if found is None:
            root[i] &= ~bit
            narrowed = searcher.propagate(root)
            if narrowed is None:
                return None
            root = narrowed
            continue
        for j, p in enumerate(found):
            seen[j] |= p
