"""Distributions that agree with the public record, drawn at random (pure, stdlib only).

The engine's exact analysis grows steeply with the number of answers; a bot
must decide in a fraction of a second, every round, in every game, so it
weighs its choices on a sample instead: a Markov chain over whole deals
(7 x 5 + X) whose step swaps two gems between locations. Simulated
annealing first reaches a deal that agrees with every answer; from there a
swap is kept only if the deal still agrees, so every consistent deal is
equally likely in the long run (the swap is symmetric). Chances are the
share of sampled deals putting a gem at a place; a question's information is
the entropy of its answer over the sample.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine import Answered
from ..rules import GEMS, LOCATIONS, PLACEHOLDERS, Gem, Question

_PLACE = {loc: i for i, loc in enumerate(LOCATIONS)}
_X = _PLACE["X"]
_HOLDS = (5,) * len(PLACEHOLDERS) + (1,)


@dataclass(frozen=True)
class Sample:
    """Deals agreeing with the record: each a tuple of location indices, one per gem."""

    deals: tuple[tuple[int, ...], ...]

    def chances(self) -> dict[Gem, dict[str, float]]:
        n = len(self.deals)
        counts = [Counter(deal[i] for deal in self.deals) for i in range(len(GEMS))]
        return {gem: {loc: counts[i][j] / n for j, loc in enumerate(LOCATIONS)}
                for i, gem in enumerate(GEMS)}

    def information(self, question: Question) -> float:
        """The entropy (bits) of the answer to ``question`` over the sampled deals."""
        place = _PLACE[question.placeholder]
        named = [i for i, g in enumerate(GEMS) if all(g.has(a) for a in question.attributes)]
        answers = Counter(sum(1 for i in named if deal[i] == place) for deal in self.deals)
        n = len(self.deals)
        return -sum(c / n * math.log2(c / n) for c in answers.values())


def _constraints(answers: Iterable[Answered]) -> list[tuple[int, frozenset[int], int]]:
    out = []
    for a in answers:
        named = frozenset(i for i, g in enumerate(GEMS)
                          if all(g.has(attr) for attr in a.question.attributes))
        out.append((_PLACE[a.question.placeholder], named, a.answer))
    return out


class _Chain:
    def __init__(self, constraints: Sequence[tuple[int, frozenset[int], int]],
                 rng: random.Random):
        self.rng = rng
        self.at: list[list[int]] = [[] for _ in LOCATIONS]  # constraint ids per location
        for k, (place, _, _) in enumerate(constraints):
            self.at[place].append(k)
        self.named = [c[1] for c in constraints]
        self.want = [c[2] for c in constraints]
        spots = [j for j, n in enumerate(_HOLDS) for _ in range(n)]
        rng.shuffle(spots)
        self.loc = spots
        self.have = [sum(1 for i in named if self.loc[i] == place)
                     for place, named, _ in constraints]
        self.energy = sum(abs(h - w) for h, w in zip(self.have, self.want, strict=True))

    def _delta(self, i: int, j: int) -> tuple[int, list[tuple[int, int]]]:
        """Energy change of swapping gems i and j, and the count changes it makes."""
        a, b = self.loc[i], self.loc[j]
        delta, changes = 0, []
        for place, leaving, arriving in ((a, i, j), (b, j, i)):
            for k in self.at[place]:
                step = (arriving in self.named[k]) - (leaving in self.named[k])
                if step:
                    before = abs(self.have[k] - self.want[k])
                    delta += abs(self.have[k] + step - self.want[k]) - before
                    changes.append((k, step))
        return delta, changes

    def step(self, temperature: float | None) -> None:
        """One proposed swap; with no temperature only a swap keeping the energy is kept."""
        i, j = self.rng.randrange(len(GEMS)), self.rng.randrange(len(GEMS))
        if self.loc[i] == self.loc[j]:
            return
        delta, changes = self._delta(i, j)
        if temperature is None:
            if delta > 0:
                return
        elif delta > 0 and self.rng.random() >= math.exp(-delta / temperature):
            return
        for k, s in changes:
            self.have[k] += s
        self.energy += delta
        self.loc[i], self.loc[j] = self.loc[j], self.loc[i]


class NoDeal(Exception):
    """No deal agreeing with the record was found (it may have none)."""


def _consistent(constraints: Sequence[tuple[int, frozenset[int], int]], rng: random.Random,
                patience: int) -> _Chain:
    """A chain at a deal agreeing with every answer: annealing, started afresh when stuck."""
    steps = 0
    while steps < patience:
        chain, temperature = _Chain(constraints, rng), 1.5
        for _ in range(ATTEMPT):
            if not chain.energy:
                return chain
            chain.step(temperature)
            temperature = max(0.15, temperature * 0.9997)
        steps += ATTEMPT
    raise NoDeal("no deal agrees with the record")


ATTEMPT = 30_000  # annealing steps before starting afresh


def sample(answers: Iterable[Answered], *, size: int = 200, thin: int = 40, seed: int = 0,
           chains: int = 20, patience: int = 600_000) -> Sample:
    """``size`` deals agreeing with every answer, from ``chains`` chains.

    Each chain starts from a deal found by annealing of its own and runs a
    burn-in of ten samples' steps before it is sampled.
    """
    constraints = _constraints(answers)
    rng = random.Random(seed)
    deals: list[tuple[int, ...]] = []
    for c in range(chains):
        chain = _consistent(constraints, rng, patience)
        for _ in range(10 * thin):
            chain.step(None)
        for _ in range(size // chains + (c < size % chains)):
            for _ in range(thin):
                chain.step(None)
            deals.append(tuple(chain.loc))
    return Sample(tuple(deals))
