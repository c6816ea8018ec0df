"""A propagating search over the distributions, and the exact possible places.

The state is, per location, the bitmask of gems that may still lie there. A
gem is fixed at a location when no other location may take it. Propagation
per constraint "exactly ``a`` of ``S`` at ``L``" (the capacities are such
constraints too, over all gems): when ``a`` are fixed, the others of ``S``
leave ``L``; when only ``a`` may be there, they are fixed there.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from math import comb

from .local import gem_fillings, local_fillings, local_support, location_rules
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
        self.capacity = [cap for _, cap in universe.capacities]
        # (locations as a bitmask over location indices, gems, count): "exactly count
        # of the gems lie in those locations". The capacities, the answers, and per
        # asked pattern the rest at the locations not asked about.
        rules = {(1 << index[loc], self.full, cap): None for loc, cap in universe.capacities}
        asked: dict[int, dict[int, int]] = {}
        for con in problem.constraints:
            rules[(1 << index[con.location], con.mask, con.count)] = None
            asked.setdefault(con.mask, {})[index[con.location]] = con.count
        every = (1 << len(self.locations)) - 1
        for mask, counts in asked.items():
            where = every
            for i in counts:
                where &= ~(1 << i)
            rules[(where, mask, mask.bit_count() - sum(counts.values()))] = None
        self.rules = list(rules)
        self._parts = []
        for where, mask, need in self.rules:
            inside_at = tuple(j for j in range(len(self.locations)) if where >> j & 1)
            outside_at = tuple(j for j in range(len(self.locations)) if not where >> j & 1)
            single = inside_at[0] if len(inside_at) == 1 else -1
            self._parts.append((single, inside_at, outside_at, mask, need))
        self.local = [location_rules([(m, c) for w, m, c in self.rules
                                      if w == 1 << i and m != self.full])
                      for i in range(len(self.locations))]
        # For _shape: per location the patterns asked there, per gem those holding it
        # (bitmasks over the patterns asked anywhere).
        numbered = {m: r for r, m in enumerate(sorted({m for rules in self.local
                                                       for m, _ in rules}))}
        self._asked_at = [sum(1 << numbered[m] for m, _ in rules) for rules in self.local]
        self._patterns_of = [sum(1 << r for m, r in numbered.items() if m >> g & 1)
                             for g in range(self.n)]

    def root(self) -> State | None:
        """The propagated start state, or None when no distribution fits."""
        return self.propagate([self.full] * len(self.locations))

    def fixed(self, state: State) -> list[int]:
        """Per location the gems no other location may take."""
        size = len(state)
        before = [0] * (size + 1)
        for i in range(size):
            before[i + 1] = before[i] | state[i]
        after = 0
        out = [0] * size
        for i in range(size - 1, -1, -1):
            out[i] = state[i] & ~(before[i] | after)
            after |= state[i]
        return out

    def _by_ways(self, state: State, fixed: list[int], filled: int, most: bool,
                 ) -> int | None:
        """The unfilled location with the fewest (``most``: the most) ways to fill it
        by its capacity alone, the first of equals (None: all filled)."""
        best, best_n = None, None
        for i, p in enumerate(state):
            if not filled >> i & 1:
                n = comb(p.bit_count() - fixed[i].bit_count(),
                         self.capacity[i] - fixed[i].bit_count())
                if best_n is None or (n > best_n if most else n < best_n):
                    best, best_n = i, n
        return best

    def tightest(self, state: State, fixed: list[int], filled: int) -> int | None:
        """The unfilled location with the fewest ways to fill it (None: all filled)."""
        return self._by_ways(state, fixed, filled, most=False)

    def widest(self, state: State, fixed: list[int], filled: int) -> int | None:
        """The unfilled location with the most ways to fill it (None: all filled).

        The order for probes once those filling the tightest first have all died
        (sampling.estimate): the tight locations are left to the end, where they have
        few sets, each propagated before the draw (sampling.LOOKAHEAD), so fewer
        probes die. On 9 of the hard bot's hardest states: 0.7-18x as many alive a
        second (4x at the median). Not the first order: over all records its errors
        were wider (the stated half-width's median 0.93 against 0.77 on 385 bot states,
        0.88 against 0.57 on the fuzz, 0.75 against 0.55 on the bench's own;
        bench/RESULTS.md). Any order fixed by the state keeps the estimate unbiased.
        """
        return self._by_ways(state, fixed, filled, most=True)

    def propagate(self, state: State) -> State | None:
        """Narrow ``state`` (a copy is returned) to a fixpoint; None on contradiction.

        Cheap counting first; then each location's constraints jointly.
        """
        state = self._count(list(state))
        while state is not None:
            changed = False
            fixed = self.fixed(state)
            for loc in range(len(state)):
                got = local_support(state[loc], fixed[loc], self.local[loc], self.capacity[loc])
                if got is None:
                    return None
                support, forced = got
                news = forced & ~fixed[loc]
                if support != state[loc] or news:
                    changed = True
                    state[loc] = support
                    for j in range(len(state)):
                        if j != loc:
                            state[j] &= ~news
                    fixed = self.fixed(state)
            if not changed:
                return state
            state = self._count(state)
        return None

    def _count(self, state: State) -> State | None:
        full, parts = self.full, self._parts
        while True:
            union = 0
            for p in state:
                union |= p
            if union != full:
                return None
            # Gems only one location may take; computed once a pass: later in the pass
            # it can only have grown, so what is read stays true (merely weaker).
            fixed = self.fixed(state)
            changed = False
            for single, inside_at, outside_at, mask, need in parts:
                if single >= 0:
                    may = state[single] & mask
                    sure = may & fixed[single]
                else:
                    inside = outside = 0
                    for j in inside_at:
                        inside |= state[j]
                    for j in outside_at:
                        outside |= state[j]
                    may = inside & mask
                    sure = may & ~outside
                n_may, n_sure = may.bit_count(), sure.bit_count()
                if n_sure > need or n_may < need:
                    return None
                if n_may == n_sure:
                    continue
                if n_sure == need:
                    changed = True
                    for j in inside_at:
                        state[j] &= ~(may & ~sure)
                elif n_may == need:
                    changed = True
                    for j in outside_at:
                        state[j] &= ~may
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

    def dive(self, state: State, rng: random.Random, seen: State | None = None,
             ) -> State | None:
        """A random descent, gem by gem, without going back: a distribution or None.

        With ``seen``, places not yet witnessed for a gem are tried first.
        """
        while state is not None:
            gem = self.branch_gem(state)
            if gem is None:
                return state
            bit = 1 << gem
            places = [i for i, p in enumerate(state) if p & bit]
            fresh = [i for i in places if seen is not None and not seen[i] & bit]
            place = rng.choice(fresh or places)
            state = self.propagate([q if j == place else q & ~bit
                                    for j, q in enumerate(state)])
        return None

    def _shape(self, state: State, filled: int, pool: int) -> tuple:
        """What the rest of the search depends on: how many remaining gems have each
        (places left, membership in the open locations' patterns); such gems swap freely."""
        open_ = [i for i in range(len(state)) if not filled >> i & 1]
        asked = 0
        for i in open_:
            asked |= self._asked_at[i]
        counts: dict[tuple[int, int], int] = {}
        rest = pool
        while rest:
            bit = rest & -rest
            rest ^= bit
            places = 0
            for i in open_:
                if state[i] & bit:
                    places |= 1 << i
            sig = (places, self._patterns_of[bit.bit_length() - 1] & asked)
            counts[sig] = counts.get(sig, 0) + 1
        return filled, tuple(sorted(counts.items()))

    def fill(self, state: State, filled: int, failed: set, rng: random.Random, *,
             steps: list[int] | None = None,
             check: Callable[[State], bool] | None = None,
             deadline: float | None = None) -> State | None:
        """One complete distribution below ``state`` (None: there is none).

        Fills one location at a time, the one with the fewest choices first,
        with every set of gems its own constraints allow at once; a shape of
        remaining gems in ``failed`` is not tried again. ``steps``: [how many
        nodes may be visited], counted down, OutOfSteps past it; ``check``: a
        further test a node fails by (pigeonholes), run at every node;
        ``deadline``: a time.thread_time() past which OutOfTime is raised (read at
        every node and every child tried).
        """
        fixed = self.fixed(state)
        best, best_n = None, None
        pool = 0
        for i, p in enumerate(state):
            if filled >> i & 1:
                continue
            pool |= p
            n = comb(p.bit_count() - fixed[i].bit_count(),
                     self.capacity[i] - fixed[i].bit_count())
            if best_n is None or n < best_n:
                best, best_n = i, n
        if best is None:
            return state
        key = self._shape(state, filled, pool)
        if key in failed:
            return None
        if steps is not None:
            steps[0] -= 1
            if steps[0] < 0:
                raise OutOfSteps
        if deadline is not None and time.thread_time() > deadline:
            raise OutOfTime
        if check is not None and check(state):
            failed.add(key)
            return None
        _, _, found = local_fillings(state[best], fixed[best], self.local[best],
                                     self.capacity[best])
        order = list(range(len(found)))
        rng.shuffle(order)
        for chosen in gem_fillings(state[best], fixed[best], self.local[best],
                                   self.capacity[best], order):
            if deadline is not None and time.thread_time() > deadline:
                raise OutOfTime
            child = self.propagate([chosen if j == best else q & ~chosen
                                    for j, q in enumerate(state)])
            if child is not None:
                got = self.fill(child, filled | 1 << best, failed, rng, steps=steps,
                                check=check, deadline=deadline)
                if got is not None:
                    return got
        failed.add(key)
        return None


class OutOfSteps(Exception):
    """A search visited more nodes than it was given."""


class OutOfTime(Exception):
    """A search ran past its deadline (the caller hands the record over)."""


class TooManySolutions(Exception):
    """More distributions than the enumeration may list."""


def all_solutions(searcher: Searcher, limit: int, deadline: float | None = None,
                  ) -> list[State]:
    """Every distribution agreeing with the constraints (TooManySolutions past ``limit``,
    or when listing them is still going on at ``deadline``, a time.monotonic())."""
    out: list[State] = []

    def walk(state: State | None, filled: int) -> None:
        if state is None:
            return
        if deadline is not None and time.monotonic() > deadline:
            raise TooManySolutions
        fixed = searcher.fixed(state)
        best = searcher.tightest(state, fixed, filled)
        # The last location left holds what propagation left it: its own rules are met.
        if best is None or filled | 1 << best == (1 << len(state)) - 1:
            out.append(state)
            if len(out) > limit:
                raise TooManySolutions
            return
        for chosen in gem_fillings(state[best], fixed[best], searcher.local[best],
                                   searcher.capacity[best]):
            walk(searcher.propagate([chosen if j == best else q & ~chosen
                                     for j, q in enumerate(state)]), filled | 1 << best)

    walk(searcher.root(), 0)
    return out
