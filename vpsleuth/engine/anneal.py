"""Witnesses by local search: a distribution with a given gem at a given place.

The exact search fills one location at a time; on some records (a bot game's
32 answers) it wanders for minutes below an early choice no check refutes,
while distributions with the gem there are plentiful. Local search finds one
the way the bots' sampler does: start from a distribution already found, put
the gem at the place (exchanging it with one there), then swap pairs of gems
between locations, by simulated annealing on the number of gems by which the
answers are missed, until none is. A distribution it returns is a witness
like any other (every answer met, every location full); when it returns
None nothing is proved, and the exact search decides.
"""

from __future__ import annotations

import math
import random
import time

from .search import Searcher, State


class Annealer:
    """Per location its answers as (gem mask, count), for counting what a swap changes."""

    def __init__(self, searcher: Searcher):
        self.n = searcher.n
        self.rules = [list(rules) for rules in searcher.local]

    def witness(self, start: State, allowed: State, gem: int, place: int,
                rng: random.Random, steps: int, tries: int = 1,
                deadline: float | None = None) -> State | None:
        """A distribution meeting every answer with ``gem`` at ``place``, or None.

        ``start``: a whole distribution; ``allowed``: per location the gems that
        may go there (no swap puts a gem elsewhere); ``steps``: swaps proposed in
        each of ``tries`` runs from ``start`` (a run that cooled into a dead end
        rarely leaves it; a fresh one often succeeds within a few hundred);
        ``deadline``: a time.thread_time() past which the runs stop (None is returned).
        """
        for _ in range(tries):
            got = self._run(start, allowed, gem, place, rng, steps, deadline)
            if got is not None:
                return got
        return None

    def _run(self, start: State, allowed: State, gem: int, place: int,
             rng: random.Random, steps: int, deadline: float | None = None,
             ) -> State | None:
        members = list(start)
        where = [0] * self.n
        for loc, mask in enumerate(members):
            for g in range(self.n):
                if mask >> g & 1:
                    where[g] = loc
        home = where[gem]
        if home != place:  # bring the gem in, sending one of the place's gems to its home
            out = [h for h in range(self.n)
                   if where[h] == place and allowed[home] >> h & 1]
            if not out:
                return None
            self._swap(members, where, gem, rng.choice(out))
        have = [[(members[loc] & m).bit_count() for m, _ in rules]
                for loc, rules in enumerate(self.rules)]
        energy = sum(abs(h - c) for loc, rules in enumerate(self.rules)
                     for h, (_, c) in zip(have[loc], rules, strict=True))
        temperature = 1.0
        others = [g for g in range(self.n) if g != gem]
        for step in range(steps):
            if not energy:
                return members
            if deadline is not None and not step & 1023 and time.thread_time() > deadline:
                return None
            i, j = rng.choice(others), rng.choice(others)
            a, b = where[i], where[j]
            if a == b or not allowed[b] >> i & 1 or not allowed[a] >> j & 1:
                continue
            delta = self._delta(have, a, i, j) + self._delta(have, b, j, i)
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                self._count(have, a, i, j)
                self._count(have, b, j, i)
                self._swap(members, where, i, j)
                energy += delta
            temperature = max(0.1, temperature * 0.999)
        return members if not energy else None

    def _delta(self, have: list[list[int]], loc: int, leaving: int, arriving: int) -> int:
        """How much further from its answers ``loc`` gets when one gem replaces another."""
        delta = 0
        for r, (m, count) in enumerate(self.rules[loc]):
            step = (m >> arriving & 1) - (m >> leaving & 1)
            if step:
                h = have[loc][r]
                delta += abs(h + step - count) - abs(h - count)
        return delta

    def _count(self, have: list[list[int]], loc: int, leaving: int, arriving: int) -> None:
        for r, (m, _) in enumerate(self.rules[loc]):
            have[loc][r] += (m >> arriving & 1) - (m >> leaving & 1)

    @staticmethod
    def _swap(members: State, where: list[int], i: int, j: int) -> None:
        a, b = where[i], where[j]
        members[a] ^= 1 << i | 1 << j
        members[b] ^= 1 << i | 1 << j
        where[i], where[j] = b, a
