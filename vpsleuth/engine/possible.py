"""The exact possible places, and more witnesses from one by exchanging gems.

A cell (gem, location) is possible when some whole distribution puts the gem
there: every distribution found witnesses its 36 cells, a cell nobody
witnessed is searched for with the gem forced there, and dropped when the
search fails.

Gems changing places so that no answer changes give witnesses for free.

A whole distribution stays consistent when gems move such that at every
location each asked pattern counts as many gems as before (the capacities
stay met as every move is an exchange). Gem ``h`` at ``a`` and ``g`` at ``b``
may swap when they look alike to every pattern asked at ``a`` and at ``b``.
Around three locations, ``h`` goes from ``a`` to ``b`` in place of ``g``,
``g`` to ``c`` in place of ``f``, ``f`` to ``a`` in place of ``h``: each must
look, where it arrives, like the gem it replaces, and ``f`` like ``h`` at ``a``.

Every distribution reached is a witness: each of its cells is possible. Early
in a game almost every possible cell is a few exchanges away from the first
witness, which spares a search per cell.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial

from .anneal import Annealer
from .bounds import Pigeonholes
from .flow import Flows
from .search import OutOfSteps, Searcher, State

RESTARTS = 4  # short searches tried after local search, before a long one
ANNEAL, ANNEAL_RUNS = 10_000, 3  # local search for a witness: swaps a run, runs
LONG_FIRST = 256  # nodes of the exact search's first turn; each further one doubles
QUICK = 16  # nodes a search for a witness visits before it also counts pigeonholes


class Swapper:
    """Per location, each gem's signature: the patterns asked there that hold it."""

    def __init__(self, searcher: Searcher):
        self.n = searcher.n
        self.size = len(searcher.locations)
        # Each location's own answers (searcher.local): rules over several locations
        # follow from them, and exchanges keep the capacities.
        self.sig = [[sum(1 << r for r, (m, _) in enumerate(rules) if m >> g & 1)
                     for g in range(self.n)] for rules in searcher.local]

    def spread(self, solution: State, seen: list[int], rng: random.Random,
               shuffles: int = 3) -> State:
        """Mark in ``seen`` every cell of every distribution reached from ``solution``
        by exchanges aimed at cells not yet seen; ``shuffles`` times a burst of random
        exchanges moves on when the aimed ones are exhausted. Returns the last one reached."""
        where = [0] * self.n
        members: list[list[int]] = [[] for _ in range(self.size)]
        for i, p in enumerate(solution):
            seen[i] |= p
            for g in range(self.n):
                if p >> g & 1:
                    where[g] = i
                    members[i].append(g)
        for _ in range(shuffles + 1):
            while self._aimed(where, members, seen):
                pass
            self._shuffle(where, members, seen, rng)
        return [sum(1 << g for g in gems) for gems in members]

    def _move(self, where: list[int], members: list[list[int]], seen: list[int],
              cycle: list[tuple[int, int]]) -> None:
        """Move each (gem, to) of ``cycle``: each takes the place of the next one's gem."""
        old = [(g, where[g]) for g, _ in cycle]
        for g, a in old:
            members[a].remove(g)
        for g, to in cycle:
            where[g] = to
            members[to].append(g)
            seen[to] |= 1 << g

    def _aimed(self, where: list[int], members: list[list[int]], seen: list[int]) -> bool:
        """One pass over the unseen cells; True when any was reached."""
        sig, moved = self.sig, False
        for h in range(self.n):
            bit = 1 << h
            for b in range(self.size):
                a = where[h]
                if b == a or seen[b] & bit:
                    continue
                sa, sb = sig[a][h], sig[b][h]
                alike = [g for g in members[b] if sig[b][g] == sb]
                partner = next((g for g in alike if sig[a][g] == sa), None)
                if partner is not None:
                    self._move(where, members, seen, [(h, b), (partner, a)])
                    moved = True
                    continue
                cycle = self._cycle(h, a, b, alike, members)
                if cycle:
                    self._move(where, members, seen, cycle)
                    moved = True
        return moved

    def _cycle(self, h: int, a: int, b: int, alike: list[int],
               members: list[list[int]]) -> list[tuple[int, int]] | None:
        sig, sa = self.sig, self.sig[a][h]
        for g in alike:
            for c in range(self.size):
                if c in (a, b):
                    continue
                sc = sig[c][g]
                for f in members[c]:
                    if sig[c][f] == sc and sig[a][f] == sa:
                        return [(h, b), (g, c), (f, a)]
        return None

    def _shuffle(self, where: list[int], members: list[list[int]], seen: list[int],
                 rng: random.Random, tries: int = 100) -> None:
        sig, n = self.sig, self.n
        for _ in range(tries):
            h, g = divmod(rng.randrange(n * n), n)
            a, b = where[h], where[g]
            if a != b and sig[a][h] == sig[a][g] and sig[b][h] == sig[b][g]:
                self._move(where, members, seen, [(h, b), (g, a)])


def possible_masks(searcher: Searcher, seed: int = 0, steps: int | None = None,
                   ) -> Sequence[int] | None:
    """Per location the gems some whole distribution puts there (None: no distribution).

    First every cell whose forcing fails propagation at once is dropped (to a
    fixpoint). Then every solution found witnesses all its cells, and those
    exchanges reach from it; a cell not yet witnessed is searched for with the
    gem forced there, and dropped when none exists. A short search comes first,
    then local search from the latest witness (anneal.py), then more short
    searches, each in a fresh random order (how long one takes depends much on
    luck); past them the exact search counts pigeonholes (bounds.py) and tries
    flows (flow.py) at every node, in turns of growing length with more local
    search. The searches share what they learnt failing (what a cut-off search
    left unfinished is not counted as failed).

    ``steps``: how many nodes those long searches may visit in all; past it
    OutOfSteps is raised (for callers that would rather not know than wait).
    """
    rng = random.Random(seed)
    budget = [steps] if steps is not None else None
    root = searcher.root()
    failed: set = set()
    seen = [0] * len(root or ())
    swapper, holes, flows = Swapper(searcher), Pigeonholes(searcher), Flows(searcher)
    annealer = Annealer(searcher)
    last: State | None = None  # the latest witness: where local search starts from
    idle = 0
    while root is not None and idle < 2:  # cheap witnesses first: random dives
        leaf = searcher.dive(root, rng, seen)
        idle += 1
        if leaf is not None and any(p & ~s for p, s in zip(leaf, seen, strict=True)):
            last = swapper.spread(leaf, seen, rng)
            idle = 0
    if root is not None and last is None:  # no dive got through: one search, any witness
        try:
            found = searcher.fill(root, 0, failed, rng, steps=[QUICK])
        except OutOfSteps:
            found = None
        if found is not None:
            last = swapper.spread(found, seen, rng)
    probed = [0] * len(seen)  # cells whose forcing propagation did not refute from this root
    while root is not None:
        todo = [(i, p & ~seen[i]) for i, p in enumerate(root) if p & ~seen[i]]
        if not todo:
            return seen
        dropped = False
        for i, cells in todo:
            cells &= ~probed[i]
            while cells:
                bit = cells & -cells
                cells ^= bit
                if not root[i] & bit or seen[i] & bit:
                    continue
                start = searcher.propagate([q if j == i else q & ~bit
                                            for j, q in enumerate(root)])
                if start is None:
                    root[i] &= ~bit
                    dropped = True
                else:
                    probed[i] |= bit
        if dropped:
            root = searcher.propagate(root)
            probed = [0] * len(seen)  # a narrower root may refute more
            continue
        i, cells = todo[0]
        bit = cells & -cells
        start = searcher.propagate([q if j == i else q & ~bit for j, q in enumerate(root)])
        found = None
        if start is not None:
            found = _quick(searcher, start, failed, rng, 1)
            if found is False and last is not None:
                found = annealer.witness(last, root, bit.bit_length() - 1, i, rng,
                                         ANNEAL, ANNEAL_RUNS) or False
            if found is False:
                found = _quick(searcher, start, failed, rng, RESTARTS)
            if found is False:
                local = partial(annealer.witness, last, list(root), bit.bit_length() - 1, i,
                                rng, ANNEAL, ANNEAL_RUNS) if last is not None else lambda: None
                found = _long(searcher, start, failed, rng, budget, lambda s: (
                    holes.contradict(s) or flows.contradict(s)), local)
        if found is None:
            root[i] &= ~bit
            root = searcher.propagate(root)
            probed = [0] * len(seen)
            continue
        last = swapper.spread(found, seen, rng)
    return None


def _quick(searcher: Searcher, start: State, failed: set, rng: random.Random, tries: int):
    """``tries`` short searches in fresh random orders: a witness, None (there is
    none), or False (none of them decided)."""
    for _ in range(tries):
        try:
            return searcher.fill(start, 0, failed, rng, steps=[QUICK])
        except OutOfSteps:
            continue
    return False


def _long(searcher: Searcher, start: State, failed: set, rng: random.Random,
          budget: list[int] | None, check, local) -> State | None:
    """The exact search, checked at every node, in turns with local search (``local``:
    a witness or a false value): each turn of the exact search twice as long as the
    one before, in a fresh random order, keeping what each learnt failing. Local
    search finds most witnesses the exact search would wander long for; only the
    exact search proves there is none. ``budget``: [nodes left in all], OutOfSteps
    past it."""
    limit = LONG_FIRST
    while True:
        allowed = limit if budget is None else min(limit, budget[0])
        steps = [allowed]
        try:
            return searcher.fill(start, 0, failed, rng, steps=steps, check=check)
        except OutOfSteps:
            if budget is not None and allowed == budget[0]:
                budget[0] = -1
                raise
        finally:
            if budget is not None and budget[0] >= 0:
                budget[0] -= allowed - max(steps[0], 0)
        found = local()
        if found:
            return found
        limit *= 2
