"""Flows: every location's answers at once, checked as a transportation problem.

Some records rule a cell out only by adding up over locations: "pearls: D
needs three, B three, F four, G one, C holds one already: all twelve; the
red diamonds all go to E and G; so nothing is left for C's red 1". Per
location a family of its answers whose patterns are nested or disjoint
(a laminar family) is a tree: gems flow from the source to the smallest
pattern holding them there, up the tree, each pattern passing exactly its
answer, each location exactly its capacity. If no such flow exists, no
distribution does (a distribution is such a flow). Integer flows decide it
exactly for the answers chosen; the answers left out of a family are not
used, so this is a relaxation: sound, not complete.

The families: patterns taken smallest first, and largest answer first; each
answer not fitting the tree is left out.
"""

from __future__ import annotations

from collections import deque

from .local import local_fillings
from .search import Searcher, State


class Flows:
    def __init__(self, searcher: Searcher):
        self.searcher = searcher
        self.n = searcher.n
        full = searcher.full
        # Each location's own answers, and each answer's complement there.
        self.rules = [[r for mask, count in rules
                       for r in ((mask, count), (full & ~mask, cap - count))]
                      for rules, cap in zip(searcher.local, searcher.capacity, strict=True)]
        self.orders = [lambda r: (r[0].bit_count(), -r[1]), lambda r: (-r[1], r[0].bit_count())]

    def contradict(self, state: State) -> bool:
        """True when some family of the answers admits no flow below ``state``."""
        return any(not self._feasible(state, order) for order in self.orders)

    def _families(self, state: State, order) -> list[list[tuple[int, int]]]:
        out = []
        for rules, may in zip(self.rules, state, strict=True):
            chosen: list[tuple[int, int]] = []
            for mask, count in sorted(((m & may, c) for m, c in rules), key=order):
                if mask and all(not mask & m or mask & m in (mask, m) for m, _ in chosen) \
                        and all(m != mask for m, _ in chosen):
                    chosen.append((mask, count))
            out.append(chosen)
        return out

    def _feasible(self, state: State, order) -> bool:
        net = _Network()
        source, sink = net.node(), net.node()
        gems = [net.node() for _ in range(self.n)]
        for g in gems:
            net.edge(source, g, 1, 1)
        searcher, fixed = self.searcher, self.searcher.fixed(state)
        for loc, family in enumerate(self._families(state, order)):
            cap = searcher.capacity[loc]
            top = net.node()
            net.edge(top, sink, cap, cap)
            family.sort(key=lambda r: r[0].bit_count())
            nodes = [net.node() for _ in family]
            for i, (mask, count) in enumerate(family):
                parent = next((nodes[j] for j in range(i + 1, len(family))
                               if family[j][0] & mask == mask), top)
                net.edge(nodes[i], parent, count, count)
            # The location's own classes, each between the least and the most any
            # filling meeting all its answers takes of it.
            masks, _, found = local_fillings(state[loc], fixed[loc], searcher.local[loc], cap)
            if not found:
                return False
            for j, cls in enumerate(masks):
                node = net.node()
                ks = [k[j] for k in found]
                entry = next((nodes[i] for i, (m, _) in enumerate(family) if m & cls == cls),
                             top)
                net.edge(node, entry, min(ks), max(ks))
                for g in range(self.n):
                    if cls >> g & 1:
                        net.edge(gems[g], node, 0, 1)
        return net.feasible(source, sink)


class _Network:
    """Integer flow with lower bounds, decided by Dinic's max-flow."""

    def __init__(self) -> None:
        self.size = 0
        self.graph: list[list[list[int]]] = []  # per node: [to, capacity, index of reverse]
        self.excess: list[int] = []

    def node(self) -> int:
        self.graph.append([])
        self.excess.append(0)
        self.size += 1
        return self.size - 1

    def edge(self, u: int, v: int, low: int, high: int) -> None:
        if high > low:
            self._arc(u, v, high - low)
        self.excess[v] += low
        self.excess[u] -= low

    def _arc(self, u: int, v: int, cap: int) -> None:
        self.graph[u].append([v, cap, len(self.graph[v])])
        self.graph[v].append([u, 0, len(self.graph[u]) - 1])

    def feasible(self, source: int, sink: int) -> bool:
        """Whether a flow from ``source`` to ``sink`` meets every edge's bounds."""
        self._arc(sink, source, 1 << 30)
        s, t = self.node(), self.node()
        need = 0
        for v in range(self.size - 2):
            if self.excess[v] > 0:
                self._arc(s, v, self.excess[v])
                need += self.excess[v]
            elif self.excess[v] < 0:
                self._arc(v, t, -self.excess[v])
        return self._max_flow(s, t) == need

    def _max_flow(self, s: int, t: int) -> int:
        total = 0
        while True:
            level = [-1] * self.size
            level[s] = 0
            queue = deque([s])
            while queue:
                u = queue.popleft()
                for v, cap, _ in self.graph[u]:
                    if cap and level[v] < 0:
                        level[v] = level[u] + 1
                        queue.append(v)
            if level[t] < 0:
                return total
            it = [0] * self.size
            while True:
                pushed = self._push(s, t, 1 << 30, level, it)
                if not pushed:
                    break
                total += pushed

    def _push(self, u: int, t: int, f: int, level: list[int], it: list[int]) -> int:
        if u == t:
            return f
        edges = self.graph[u]
        while it[u] < len(edges):
            e = edges[it[u]]
            v, cap, rev = e
            if cap and level[v] == level[u] + 1:
                got = self._push(v, t, min(f, cap), level, it)
                if got:
                    e[1] -= got
                    self.graph[v][rev][1] += got
                    return got
            it[u] += 1
        return 0
