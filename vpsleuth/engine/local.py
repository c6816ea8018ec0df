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

# The sums of a partial filling packed into one int: a field of FIELD bits per count
# (the gems taken, then each rule's), the top bit of each a guard that a subtraction
# clears when it borrows. A count never passes 36 (the gems), nor a sum plus what is
# still to come 72, so 7 bits hold every field.
FIELD = 8


def _classes(may: int, rules: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """``may`` split by every rule's mask, lowest gem first."""
    masks: list[int] = [may] if may else []
    for m, _ in rules:
        masks = [part for c in masks for part in (c & m, c & ~m) if part]
    masks.sort(key=lambda c: c & -c)
    return tuple(masks)


def _layers(may: int, sure: int, rules: tuple[tuple[int, int], ...], capacity: int):
    """(classes, fixed per class, gems per class, packed step per class, alive) where
    alive[j] holds the packed sums after classes 0..j-1 from which some valid filling
    goes on (alive[0] is {0} or empty: no valid filling at all).

    Forward, the sums reachable without passing a target or leaving one out of reach;
    backward, those of them from which the targets are met. The sums are few (tens
    to hundreds) where the fillings they lead to branch in thousands of dead ends: a
    location's rules overlap, and whether a class may take x gems was found by
    trying every filling before it.
    """
    masks = _classes(may, rules)
    n = len(masks)
    low = tuple((m & sure).bit_count() for m in masks)
    high = tuple(m.bit_count() for m in masks)
    guard = sum(0x80 << (FIELD * f) for f in range(len(rules) + 1))
    steps = tuple(1 + sum(1 << (FIELD * (r + 1)) for r, (rule, _) in enumerate(rules)
                          if m & rule) for m in masks)
    target = capacity + sum(count << (FIELD * (r + 1)) for r, (_, count) in enumerate(rules))
    ceiling = target | guard
    later = [0] * (n + 1)  # per field, the most classes j.. can still add
    for j in range(n - 1, -1, -1):
        later[j] = later[j + 1] + high[j] * steps[j]
    reach = [{0}]
    for j in range(n):
        step, rest, nxt = steps[j], later[j + 1], set()
        for s in reach[j]:
            got = s + low[j] * step
            for _ in range(low[j], high[j] + 1):
                if (ceiling - got) & guard != guard:  # a field past its target: more is too
                    break
                if ((got + rest) | guard) - target & guard == guard:  # every target in reach
                    nxt.add(got)
                got += step
        reach.append(nxt)
    # After the last class nothing is to come: the two bounds leave the targets alone.
    alive: list[set[int]] = [set() for _ in range(n)] + [reach[n]]
    for j in range(n - 1, -1, -1):
        step, ahead, keep = steps[j], alive[j + 1], alive[j]
        span = range(low[j], high[j] + 1)
        for s in reach[j]:
            got = s + low[j] * step
            for _ in span:
                if got in ahead:
                    keep.add(s)
                    break
                got += step
    return masks, low, high, steps, alive


@lru_cache(maxsize=100_000)
def local_fillings(may: int, sure: int, rules: tuple[tuple[int, int], ...], capacity: int,
                   ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """(class masks, fixed per class, every valid k per class) for one location.

    ``may``: gems that may lie here; ``sure``: those fixed here; ``rules``:
    (mask, count) constraints. The classes split ``may`` by the rules' masks;
    a valid k takes k_c gems of class c (at least the fixed ones), ``capacity``
    in all, and meets every rule. In lexicographic order of k, each found by
    walking only the sums from which a valid filling goes on (``_layers``).
    """
    masks, low, high, steps, alive = _layers(may, sure, rules, capacity)
    n = len(masks)
    found: list[tuple[int, ...]] = []
    k = [0] * n

    def walk(j: int, s: int) -> None:
        if j == n:
            found.append(tuple(k))
            return
        step, ahead = steps[j], alive[j + 1]
        got = s + low[j] * step
        for x in range(low[j], high[j] + 1):
            if got in ahead:
                k[j] = x
                walk(j + 1, got)
            got += step

    if 0 in alive[0]:
        walk(0, 0)
    return masks, low, tuple(found)


@lru_cache(maxsize=100_000)
def local_support(may: int, sure: int, rules: tuple[tuple[int, int], ...],
                  capacity: int) -> tuple[int, int] | None:
    """(gems some valid filling may include, gems every valid filling includes), or None.

    From the sums alone (``_layers``), without listing the fillings: class j may take
    x gems when an alive sum before it leads by x to one after it.
    """
    masks, low, high, steps, alive = _layers(may, sure, rules, capacity)
    if 0 not in alive[0]:
        return None
    support, forced = sure, 0
    for j, m in enumerate(masks):
        step, ahead = steps[j], alive[j + 1]
        takes = {x for s in alive[j] for x in range(low[j], high[j] + 1)
                 if s + x * step in ahead}
        if max(takes) > low[j]:
            support |= m
        if min(takes) == high[j]:
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
