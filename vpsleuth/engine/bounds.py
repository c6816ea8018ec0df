"""Pigeonholes: a set of gems that the locations need more of than it has.

Propagation reads one constraint, or one location, at a time. Some records
prove a cell impossible only by adding up over locations: "D needs three
blue pearls or opals, B two, C one and F one, but there are six". For a set
``S`` each location's answers give a least number of ``S`` it must hold:
from answers on disjoint patterns ``M`` with count ``c``, at least
``c - |M and not S|`` of those that may still lie there come from ``S``; gems
fixed there count too. When these least numbers add up to more than ``|S|``,
no distribution fits.

The sets tried are the patterns asked, each pattern less a narrower one
asked ("blue, not diamonds"), and their complements.
"""

from __future__ import annotations

from .search import Searcher, State


class Pigeonholes:
    def __init__(self, searcher: Searcher):
        full = searcher.full
        # Each location's own answers, and its capacity as an answer on every gem.
        self.rules = [[*rules, (full, cap)]
                      for rules, cap in zip(searcher.local, searcher.capacity, strict=True)]
        asked = {m for rules in searcher.local for m, _ in rules}
        sets = asked | {m & ~n for m in asked for n in asked if n != m and n & m == n}
        sets |= {full & ~s for s in sets}
        self.sets = sorted(s for s in sets if s and s != full)
        self.searcher = searcher

    def contradict(self, state: State) -> bool:
        """True when some set is short of what the locations need of it."""
        fixed = self.searcher.fixed(state)
        for s in self.sets:
            size, need = s.bit_count(), 0
            for rules, may, sure in zip(self.rules, state, fixed, strict=True):
                need += self._least(rules, may, sure, s)
                if need > size:
                    return True
        return False

    @staticmethod
    def _least(rules: list[tuple[int, int]], may: int, sure: int, s: int) -> int:
        """A least number of ``s`` a location must hold: disjoint answers, greedily."""
        bounds = []
        for mask, count in rules:
            m = mask & may
            b = count - (m & ~s).bit_count()
            if b > 0:
                bounds.append((b, m))
        bounds.sort(reverse=True)
        least = used = 0
        for b, m in bounds:
            if not m & used:
                least += b
                used |= m
        return least + (s & sure & ~used).bit_count()
