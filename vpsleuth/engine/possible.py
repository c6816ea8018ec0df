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
import time
from collections.abc import Callable, Sequence
from functools import partial

from .anneal import Annealer
from .bounds import Pigeonholes
from .flow import Flows
from .search import OutOfSteps, OutOfTime, Searcher, State

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


HandOver = Callable[[State, list[int]], Sequence[int] | None]


def possible_masks(searcher: Searcher, seed: int = 0, steps: int | None = None, *,
                   patience: float | None = None, hand_over: HandOver | None = None,
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
    ``patience`` seconds of CPU time, then ``hand_over``: past them the search stops
    and ``hand_over(root, seen)`` decides the cells still open (root: per
    location the gems propagation leaves, seen: those witnessed) and its
    answer is returned; both or neither.
    """
    if (patience is None) != (hand_over is None):
        raise ValueError("patience and hand_over go together")
    # The search's own CPU time (this thread's), not the wall clock's: which path answers
    # a record then depends on the record, not on how busy the machine or process is.
    deadline = None if patience is None else time.thread_time() + patience
    root = searcher.root()
    seen = [0] * len(root or ())
    try:
        return _decide(searcher, root, seen, random.Random(seed), steps, deadline)
    except OutOfTime:
        assert hand_over is not None and root is not None  # no deadline, no OutOfTime
        return hand_over(root, seen)


def _late(deadline: float | None) -> None:
    # At or past: a patience of 0 hands every record over at once (the tests' way there).
    if deadline is not None and time.thread_time() >= deadline:
        raise OutOfTime


def _decide(searcher: Searcher, root: State | None, seen: list[int], rng: random.Random,
            steps: int | None, deadline: float | None) -> Sequence[int] | None:
    """possible_masks' work, narrowing ``root`` and marking ``seen`` in place (so that
    what they hold when OutOfTime is raised is what was proved by then)."""
    budget = [steps] if steps is not None else None
    failed: set = set()
    swapper, holes, flows = Swapper(searcher), Pigeonholes(searcher), Flows(searcher)
    annealer = Annealer(searcher)
    last: State | None = None  # the latest witness: where local search starts from
    idle = 0
    while root is not None and idle < 2:  # cheap witnesses first: random dives
        _late(deadline)
        leaf = searcher.dive(root, rng, seen)
        idle += 1
        if leaf is not None and any(p & ~s for p, s in zip(leaf, seen, strict=True)):
            last = swapper.spread(leaf, seen, rng)
            idle = 0
    if root is not None and last is None:  # no dive got through: one search, any witness
        try:
            found = searcher.fill(root, 0, failed, rng, steps=[QUICK], deadline=deadline)
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
                _late(deadline)
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
            if not _narrow(searcher, root):
                return None
            probed = [0] * len(seen)  # a narrower root may refute more
            continue
        i, cells = todo[0]
        bit = cells & -cells
        start = searcher.propagate([q if j == i else q & ~bit for j, q in enumerate(root)])
        found = None
        if start is not None:
            found = _quick(searcher, start, failed, rng, 1, deadline)
            if found is False and last is not None:
                found = annealer.witness(last, root, bit.bit_length() - 1, i, rng,
                                         ANNEAL, ANNEAL_RUNS, deadline=deadline) or False
            if found is False:
                found = _quick(searcher, start, failed, rng, RESTARTS, deadline)
            if found is False:
                local = partial(annealer.witness, last, list(root), bit.bit_length() - 1, i,
                                rng, ANNEAL, ANNEAL_RUNS, deadline=deadline,
                                ) if last is not None else lambda: None
                found = _long(searcher, start, failed, rng, budget, lambda s: (
                    holes.contradict(s) or flows.contradict(s)), local, deadline)
        if found is None:
            root[i] &= ~bit
            if not _narrow(searcher, root):
                return None
            probed = [0] * len(seen)
            continue
        last = swapper.spread(found, seen, rng)
    return None


def _narrow(searcher: Searcher, root: State) -> bool:
    """Propagate ``root`` in place; False when it contradicts (no distribution)."""
    got = searcher.propagate(root)
    if got is None:
        return False
    root[:] = got
    return True


def _quick(searcher: Searcher, start: State, failed: set, rng: random.Random, tries: int,
           deadline: float | None = None):
    """``tries`` short searches in fresh random orders: a witness, None (there is
    none), or False (none of them decided)."""
    for _ in range(tries):
        try:
            return searcher.fill(start, 0, failed, rng, steps=[QUICK], deadline=deadline)
        except OutOfSteps:
            continue
    return False


def _long(searcher: Searcher, start: State, failed: set, rng: random.Random,
          budget: list[int] | None, check, local, deadline: float | None = None,
          ) -> State | None:
    """The exact search, checked at every node, in turns with local search (``local``:
    a witness or a false value): each turn of the exact search twice as long as the
    one before, in a fresh random order, keeping what each learnt failing. Local
    search finds most witnesses the exact search would wander long for; only the
    exact search proves there is none. ``budget``: [nodes left in all], OutOfSteps
    past it; ``deadline``: OutOfTime past it."""
    limit = LONG_FIRST
    while True:
        allowed = limit if budget is None else min(limit, budget[0])
        steps = [allowed]
        try:
            return searcher.fill(start, 0, failed, rng, steps=steps, check=check,
                                 deadline=deadline)
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
