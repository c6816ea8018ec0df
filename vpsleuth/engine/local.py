"""Joint reasoning over all constraints at one location.

Count propagation looks at one constraint at a time; here every filling of a
location (how many gems of each class its constraints tell apart) is
enumerated, so a gem stays possible there only if some filling meeting all the
location's constraints at once can include it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, product


@lru_cache(maxsize=100_000)
def local_fillings(may: int, sure: int, rules: tuple[tuple[int, int], ...], capacity: int,
                   ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """(class masks, fixed per class, every valid k per class) for one location.

    ``may``: gems that may lie here; ``sure``: those fixed here; ``rules``:
    (mask, count) constraints. The classes split ``may`` by the rules' masks;
    a valid k takes k_c gems of class c (at least the fixed ones), ``capacity``
    in all, and meets every rule.
    """
    groups: dict[tuple[bool, ...], int] = {}
    rest = may
    while rest:
        bit = rest & -rest
        rest ^= bit
        key = tuple(bool(m & bit) for m, _ in rules)
        groups[key] = groups.get(key, 0) | bit
    keys = list(groups)
    masks = tuple(groups[k] for k in keys)
    low = tuple((m & sure).bit_count() for m in masks)
    high = [m.bit_count() for m in masks]
    n, t = len(keys), len(rules)
    # later[r][j]: the most rule r can still get from classes j..
    later = [[0] * (n + 1) for _ in range(t)]
    for r in range(t):
        for j in range(n - 1, -1, -1):
            later[r][j] = later[r][j + 1] + (high[j] if keys[j][r] else 0)
    low_after = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        low_after[j] = low_after[j + 1] + low[j]
    sums = [0] * t
    k = [0] * n
    found: list[tuple[int, ...]] = []

    def rec(j: int, left: int) -> None:
        if j == n:
            if left == 0 and all(sums[r] == rules[r][1] for r in range(t)):
                found.append(tuple(k))
            return
        lo, hi = low[j], min(high[j], left - low_after[j + 1])
        for r in range(t):
            if keys[j][r]:
                hi = min(hi, rules[r][1] - sums[r])
                lo = max(lo, rules[r][1] - sums[r] - later[r][j + 1])
        for x in range(lo, hi + 1):
            k[j] = x
            for r in range(t):
                if keys[j][r]:
                    sums[r] += x
            rec(j + 1, left - x)
            for r in range(t):
                if keys[j][r]:
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
    for j, m in enumerate(masks):
        if any(k[j] > low[j] for k in found):
            support |= m
        if all(k[j] == m.bit_count() for k in found):
            forced |= m
    return support, forced


def gem_fillings(may: int, sure: int, rules: tuple[tuple[int, int], ...], capacity: int,
                 order: list[int] | None = None) -> Iterator[int]:
    """Every set of gems (as a bitmask) the location can hold, class fillings in ``order``."""
    masks, _, found = local_fillings(may, sure, rules, capacity)
    for index in order if order is not None else range(len(found)):
        choices = [[sure & m | sum(extra) for extra in
                    combinations(bits(m & ~sure), x - (sure & m).bit_count())]
                   for m, x in zip(masks, found[index], strict=True)]
        for picked in product(*choices):
            yield sum(picked)


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
