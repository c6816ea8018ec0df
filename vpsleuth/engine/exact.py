"""Exact counting by dynamic programming over the locations.

The gems are grouped into classes no constraint tells apart; a location takes
``k_c`` gems of each class ``c`` (in ``C(r_c, k_c)`` ways when ``r_c`` remain),
and the remaining class counts are the state, memoised per location. The
number of distributions is the weight of all paths; the share of them putting
a gem of class ``c`` at ``L`` is the expected ``k_c`` there over ``n_c``.
When a state budget is exceeded, ``TooMany`` is raised and the caller
estimates instead.
"""

from __future__ import annotations

import random
import time
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from math import comb

from .local import bits
from .model import Problem


class TooMany(Exception):
    """The exact count needs more states than allowed."""


@dataclass(frozen=True)
class Exact:
    """Counts over the consistent distributions, all exact integers."""

    count: int
    classes: tuple[int, ...]              # bitmask of gems per class
    placed: dict[str, tuple[int, ...]]    # location -> per class: sum over solutions of k_c
    answers: dict[tuple[int, str], dict[int, int]]  # (mask, location) -> answer -> solutions


@dataclass(frozen=True)
class _Place:
    location: str
    capacity: int
    # Each constraint as (member flags per class, count), its complement included.
    rules: tuple[tuple[tuple[bool, ...], int], ...]


def _members(mask: int, classes: Sequence[int]) -> tuple[bool, ...]:
    return tuple(bool(c & mask) for c in classes)


def _places(problem: Problem, classes: Sequence[int]) -> list[_Place]:
    full = (1 << len(problem.universe.gems)) - 1
    places = []
    for loc, cap in problem.universe.capacities:
        rules = []
        for con in problem.at(loc):
            rules.append((_members(con.mask, classes), con.count))
            rules.append((_members(full & ~con.mask, classes), cap - con.count))
        places.append(_Place(loc, cap, tuple(rules)))
    # Most constrained first keeps the early layers of states narrow.
    places.sort(key=lambda p: -len(p.rules))
    return places


def fillings(place: _Place, remaining: tuple[int, ...], work: list[int] | None = None,
             ) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every (k per class, ways) a location can take from the remaining counts.

    ``work``: [steps taken, most allowed], shared; TooMany past the most.
    """
    n = len(remaining)
    rules = place.rules
    # later[t][j]: how many gems of classes j.. belong to rule t (what it can still get).
    later = []
    for members, _ in rules:
        acc = [0] * (n + 1)
        for j in range(n - 1, -1, -1):
            acc[j] = acc[j + 1] + (remaining[j] if members[j] else 0)
        later.append(acc)
    k = [0] * n
    sums = [0] * len(rules)

    def rec(j: int, left: int, ways: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if work is not None:
            work[0] += 1
            if work[0] > work[1]:
                raise TooMany
        if j == n:
            if left == 0 and all(sums[t] == rules[t][1] for t in range(len(rules))):
                yield tuple(k), ways
            return
        lo, hi = 0, min(remaining[j], left)
        for t, (members, need) in enumerate(rules):
            if members[j]:
                hi = min(hi, need - sums[t])
                lo = max(lo, need - sums[t] - later[t][j + 1])
        for x in range(lo, hi + 1):
            k[j] = x
            for t, (members, _) in enumerate(rules):
                if members[j]:
                    sums[t] += x
            yield from rec(j + 1, left - x, ways * comb(remaining[j], x))
            for t, (members, _) in enumerate(rules):
                if members[j]:
                    sums[t] -= x
        k[j] = 0

    yield from rec(0, place.capacity, 1)


class _Ways:
    """The dynamic programme: the number of ways to fill locations i.. from class counts."""

    def __init__(self, problem: Problem, tally: Sequence[int], budget: int,
                 deadline: float | None = None):
        self.classes = tuple(problem.classes(tally))
        self.places = _places(problem, self.classes)
        self.sizes = tuple(c.bit_count() for c in self.classes)
        self.memo: list[dict[tuple[int, ...], int]] = [{} for _ in self.places]
        self.states, self.budget, self.deadline = 0, budget, deadline
        # steps enumerating fillings: a count that succeeds needs fewer
        self.work = [0, 20 * budget]
        self.total = self.ways_from(0, self.sizes)

    def ways_from(self, i: int, remaining: tuple[int, ...]) -> int:
        if i == len(self.places):
            return 1 if not any(remaining) else 0
        got = self.memo[i].get(remaining)
        if got is None:
            self.states += 1
            if self.states > self.budget:
                raise TooMany
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise TooMany
            got = 0
            for k, ways in fillings(self.places[i], remaining, self.work):
                rest = tuple(r - x for r, x in zip(remaining, k, strict=True))
                got += ways * self.ways_from(i + 1, rest)
            self.memo[i][remaining] = got
        return got


def exact(problem: Problem, *, tally: Sequence[int] = (), budget: int = 200_000,
          deadline: float | None = None) -> Exact:
    """Count the consistent distributions exactly, with per-class placements.

    ``tally``: gem masks whose count at every location is tallied per answer
    (what a new question on that pattern would answer). Raises TooMany when
    more than ``budget`` states (or 20 times as many steps finding fillings) are needed,
    or when a new state is reached after ``deadline`` (a time.monotonic()).
    """
    dp = _Ways(problem, tally, budget, deadline)
    classes, places, sizes, total = dp.classes, dp.places, dp.sizes, dp.total
    ways_from = dp.ways_from
    tallies = [(m, _members(m, classes)) for m in tally]
    placed: dict[str, list[int]] = {p.location: [0] * len(classes) for p in places}
    answers: dict[tuple[int, str], dict[int, int]] = {}
    layer = {sizes: 1} if total else {}
    for i, place in enumerate(places):
        following: dict[tuple[int, ...], int] = {}
        acc = placed[place.location]
        for remaining, before in layer.items():
            for k, ways in fillings(place, remaining):
                rest = tuple(r - x for r, x in zip(remaining, k, strict=True))
                after = ways_from(i + 1, rest)
                if not after:
                    continue
                through = before * ways
                following[rest] = following.get(rest, 0) + through
                weight = through * after
                for j, x in enumerate(k):
                    if x:
                        acc[j] += weight * x
                for mask, members in tallies:
                    got = sum(x for x, m in zip(k, members, strict=True) if m)
                    bucket = answers.setdefault((mask, place.location), {})
                    bucket[got] = bucket.get(got, 0) + weight
        layer = following
    return Exact(total, classes, {loc: tuple(v) for loc, v in placed.items()}, answers)


def uniform_samples(problem: Problem, n: int, rng: random.Random, *,
                    budget: int = 200_000) -> list[list[int]]:
    """``n`` distributions drawn uniformly (with replacement) among the consistent ones.

    Exact sampling from the dynamic programme: each location's class counts are
    drawn in proportion to the distributions they lead to, then the gems of
    each class uniformly. Per location of ``problem.universe``, a gem mask.
    Raises TooMany as ``exact`` does; an empty list when none is consistent.
    """
    dp = _Ways(problem, (), budget)
    if not dp.total:
        return []
    index = {loc: i for i, loc in enumerate(problem.universe.locations)}
    options: list[dict[tuple[int, ...], tuple[list, list[int]]]] = [{} for _ in dp.places]
    out = []
    for _ in range(n):
        remaining, left = dp.sizes, [bits(c) for c in dp.classes]
        state = [0] * len(index)
        for i, place in enumerate(dp.places):
            if remaining not in options[i]:
                ks, weights = [], []
                for k, ways in fillings(place, remaining):
                    rest = tuple(r - x for r, x in zip(remaining, k, strict=True))
                    weight = ways * dp.ways_from(i + 1, rest)
                    if weight:
                        ks.append(k)
                        weights.append(weight)
                options[i][remaining] = (ks, list(accumulate(weights)))
            ks, cumulative = options[i][remaining]
            k = ks[bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            mask = 0
            for j, x in enumerate(k):
                if x:
                    taken = rng.sample(left[j], x)
                    left[j] = [g for g in left[j] if g not in taken]
                    mask |= sum(taken)
            state[index[place.location]] = mask
            remaining = tuple(r - x for r, x in zip(remaining, k, strict=True))
        out.append(state)
    return out
