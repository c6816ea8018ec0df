"""Joint reasoning over all constraints at one location.

Count propagation looks at one constraint at a time; here every filling of a
location (how many gems of each class its constraints tell apart) is
enumerated, so a gem stays possible there only if some filling meeting all the
location's constraints at once can include it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations


@lru_cache(maxsize=100_000)
def local_fillings(may: int, sure: int, rules: tuple[tuple[int, int], ...], capacity: int,
                   ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """(class masks, fixed per class, every valid k per class) for one location.

    ``may``: gems that may lie here; ``sure``: those fixed here; ``rules``:
    (mask, count) constraints. The classes split ``may`` by the rules' masks;
    a valid k takes k_c gems of class c (at least the fixed ones), ``capacity``
    in all, and meets every rule.
    """
    # The classes: ``may`` split by every rule's mask, lowest gem first.
    masks_: list[int] = [may] if may else []
    for m, _ in rules:
        masks_ = [part for c in masks_ for part in (c & m, c & ~m) if part]
    masks_.sort(key=lambda c: c & -c)
    masks = tuple(masks_)
    low = tuple((m & sure).bit_count() for m in masks)
    high = [m.bit_count() for m in masks]
    targets = [count for _, count in rules]
    n, t = len(masks), len(rules)
    within = [[r for r in range(t) if masks[j] & rules[r][0]] for j in range(n)]
    # later[r][j]: the most rule r can still get from classes j..
    later = [[0] * (n + 1) for _ in range(t)]
    for r in range(t):
        for j in range(n - 1, -1, -1):
            later[r][j] = later[r][j + 1] + (high[j] if r in within[j] else 0)
    low_after, high_after = [0] * (n + 1), [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        low_after[j] = low_after[j + 1] + low[j]
        high_after[j] = high_after[j + 1] + high[j]
    sums = [0] * t
    k = [0] * n
    found: list[tuple[int, ...]] = []

    def rec(j: int, left: int) -> None:
        if j == n:
            if left == 0 and sums == targets:
                found.append(tuple(k))
            return
        lo = max(low[j], left - high_after[j + 1])
        hi = min(high[j], left - low_after[j + 1])
        rs = within[j]
        for r in rs:
            rest = targets[r] - sums[r]
            hi = min(hi, rest)
            lo = max(lo, rest - later[r][j + 1])
        for x in range(lo, hi + 1):
            k[j] = x
            for r in rs:
                sums[r] += x
            rec(j + 1, left - x)
            for r in rs:
                sums[r] -= x
        k[j] = 0

    rec(0, capacity)
    return masks, low, tuple(found)


@lru_cache(maxsize=100_000)
def local_support(may: int, sure: int, rules: tuple[tuple[int, int], ...],
                  capacity: int) -> tuple[int, int] | None:
    """(gems some valid filling may include, gems every valid filling includes), or None."""
    masks, low, found = local_fillings(may, sure, rules, capacity)
    if not found:
        return None
    support, forced = sure, 0
    takes_by_class = zip(*found, strict=True)  # per class, every take
    for m, least, takes in zip(masks, low, takes_by_class, strict=True):
        if max(takes) > least:
            support |= m
        if min(takes) == m.bit_count():
            forced |= m
    return support, forced


def gem_fillings(may: int, sure: int, rules: tuple[tuple[int, int], ...], capacity: int,
                 order: list[int] | None = None) -> Iterator[int]:
    """Every set of gems (as a bitmask) the location can hold, class fillings in ``order``.

    Lazily: a search usually takes one of the first few, and early in a game a
    crowded location can hold tens of thousands.
    """
    masks, _, found = local_fillings(may, sure, rules, capacity)
    for index in order if order is not None else range(len(found)):
        picks = [(bits(m & ~sure), x - (sure & m).bit_count())
                 for m, x in zip(masks, found[index], strict=True)]
        yield from _picked(picks, 0, sure)


def _picked(picks: list[tuple[list[int], int]], c: int, base: int) -> Iterator[int]:
    """``base`` and, from class c on, each class's count of its gems in every way
    (in the order of itertools.product over itertools.combinations)."""
    if c == len(picks):
        yield base
        return
    gems, need = picks[c]
    for extra in combinations(gems, need):
        yield from _picked(picks, c + 1, base | sum(extra))


def bits(mask: int) -> list[int]:
    """The single-gem masks of ``mask``, lowest first."""
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit)
        mask ^= bit
    return out


def location_rules(masks_counts: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The constraints of one location as a hashable tuple, repeats dropped."""
    return tuple(dict.fromkeys(masks_counts))
