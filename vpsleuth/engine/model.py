"""The deduction problem, generic over the gems and the places they go to.

A problem is a universe (gems, and how many gems each location holds, the
capacities summing to the number of gems) and constraints "exactly ``count``
of the gems in ``mask`` lie at ``location``" (``mask`` a bitmask over the
universe's gems). The real game is the 36 gems with A-G holding 5 and X 1;
tests use reduced universes that brute force can check.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from vpsleuth.rules import GEMS, LOCATIONS, NOBODY, Gem, Question
from vpsleuth.rules.deal import GEMS_PER_PLACEHOLDER

from .record import Answered


@dataclass(frozen=True)
class Universe:
    """The gems and each location's capacity (capacities sum to the number of gems)."""

    gems: tuple[Gem, ...]
    capacities: tuple[tuple[str, int], ...]

    def __post_init__(self) -> None:
        if sum(c for _, c in self.capacities) != len(self.gems):
            raise ValueError("the capacities must add up to the number of gems")

    @property
    def locations(self) -> tuple[str, ...]:
        return tuple(loc for loc, _ in self.capacities)

    def mask(self, question: Question) -> int:
        """The gems having every attribute the question names, as a bitmask."""
        bits = 0
        for i, gem in enumerate(self.gems):
            if all(gem.has(a) for a in question.attributes):
                bits |= 1 << i
        return bits


GAME = Universe(GEMS, tuple((loc, 1 if loc == NOBODY else GEMS_PER_PLACEHOLDER)
                            for loc in LOCATIONS))


@dataclass(frozen=True)
class Constraint:
    """Exactly ``count`` of the gems in ``mask`` lie at ``location``."""

    location: str
    mask: int
    count: int


@dataclass(frozen=True)
class Problem:
    universe: Universe
    constraints: tuple[Constraint, ...]

    @classmethod
    def of(cls, answers: Iterable[Answered], universe: Universe = GAME) -> Problem:
        """The problem an iterable of answers poses; repeated answers are kept once."""
        seen: dict[Constraint, None] = {}
        for a in answers:
            seen[Constraint(a.question.placeholder, universe.mask(a.question), a.answer)] = None
        return cls(universe, tuple(seen))

    def narrowed(self, possible: Sequence[int]) -> Problem:
        """The same distributions, with "none of these lie at L" for the gems that
        ``possible`` (per location, the gems some distribution puts there) rules out.
        Counting and listing prune with them at once instead of finding them again."""
        full = (1 << len(self.universe.gems)) - 1
        out = tuple(Constraint(loc, full & ~mask, 0)
                    for loc, mask in zip(self.universe.locations, possible, strict=True)
                    if full & ~mask)
        return Problem(self.universe, tuple(dict.fromkeys(self.constraints + out)))

    def at(self, location: str) -> list[Constraint]:
        return [c for c in self.constraints if c.location == location]

    def classes(self, extra_masks: Iterable[int] = ()) -> list[int]:
        """The gems split into classes no asked pattern tells apart, as bitmasks.

        Gems of one class are interchangeable in every constraint, so counting
        may place "k gems of class c" and multiply by binomials.
        """
        masks = {c.mask for c in self.constraints} | set(extra_masks)
        groups: dict[tuple[bool, ...], int] = {}
        ordered = sorted(masks)
        for i in range(len(self.universe.gems)):
            key = tuple(bool(m >> i & 1) for m in ordered)
            groups[key] = groups.get(key, 0) | 1 << i
        return list(groups.values())
