"""One location's fillings and support, found from packed sums (local.py): the same as
listing every set of gems the location may hold, on inputs hypothesis makes, and checks
that each of the walk's pruning rules, made wrong, fails against that listing."""

from __future__ import annotations

import random
import types
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vpsleuth.engine import local

SOURCE = Path(local.__file__).read_text()


def listed(may: int, sure: int, rules, capacity: int):
    """(class masks, fixed per class, sorted valid k tuples, support, forced) by listing
    every set of ``capacity`` gems of ``may`` that holds ``sure`` and meets every rule."""
    masks = local._classes(may, rules)
    gems = local.bits(may)
    valid = [sum(chosen) for chosen in combinations(gems, capacity)
             if sum(chosen) & sure == sure
             and all((sum(chosen) & m).bit_count() == c for m, c in rules)]
    ks = sorted({tuple((chosen & m).bit_count() for m in masks) for chosen in valid})
    support = forced = 0
    if valid:
        forced = (1 << 64) - 1
        for chosen in valid:
            support |= chosen
            forced &= chosen
    return masks, ks, support, forced if valid else 0


def location(rng: random.Random):
    """A location's input: gems that may lie there, those fixed there, rules and capacity.
    Mostly rules taken from a real filling (so one exists), sometimes a count made up."""
    n = rng.randint(1, 12)
    may = rng.getrandbits(n) | 1
    gems = local.bits(may)
    capacity = rng.randint(0, len(gems))
    filling = sum(rng.sample(gems, capacity))
    sure = filling & rng.getrandbits(n) if rng.random() < 0.5 else 0
    rules = []
    for _ in range(rng.randint(0, 4)):
        mask = rng.getrandbits(n + 1) or 1
        count = (filling & mask).bit_count()
        if rng.random() < 0.15:
            count = max(0, count + rng.choice((-1, 1)))
        rules.append((mask, count))
    return may, sure, local.location_rules(rules), capacity


def check(module, may, sure, rules, capacity) -> None:
    masks, ks, support, forced = listed(may, sure, rules, capacity)
    got_masks, low, found = module.local_fillings.__wrapped__(may, sure, rules, capacity)
    assert got_masks == tuple(masks)
    assert low == tuple((m & sure).bit_count() for m in masks)
    assert list(found) == ks  # every valid k, in lexicographic order
    got = module.local_support.__wrapped__(may, sure, rules, capacity)
    if not ks:
        assert got is None
        return
    # Forced: the gems every filling holds, but for those already fixed here (``sure``),
    # which it may or may not name: the search takes the news, forced & ~sure.
    assert got[0] == support | sure and got[1] | sure == forced


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fillings_and_support_are_what_listing_every_set_of_gems_gives(seed):
    check(local, *location(random.Random(seed)))


def test_the_fillings_of_a_crowded_location_with_overlapping_rules_are_all_found():
    # Twelve gems, six places, four overlapping rules: many fillings and dead ends.
    rules = local.location_rules([(0b000000111111, 3), (0b000111111000, 3),
                                  (0b111111000000, 3), (0b010101010101, 3)])
    may = (1 << 12) - 1
    check(local, may, 0, rules, 6)
    assert len(local.local_fillings.__wrapped__(may, 0, rules, 6)[2]) > 5


# Each of the walk's rules made wrong: the mutant must disagree with the listing.
MUTANTS = {
    "a field at its target is taken as past it":
        ("if (ceiling - got) & guard != guard:", "if (ceiling - got - 1) & guard != guard:"),
    "a target one short of reach is taken as out of reach":
        ("if ((got + rest) | guard) - target & guard == guard:",
         "if ((got + rest - 1) | guard) - target & guard == guard:"),
    "what classes still to come can add is taken as their fixed gems alone":
        ("later[j] = later[j + 1] + high[j] * steps[j]",
         "later[j] = later[j + 1] + low[j] * steps[j]"),
    "a sum is kept alive only when its class's least take goes on":
        ("            for _ in span:\n", "            for _ in span[:1]:\n"),
    "fields too narrow for the counts":
        ("FIELD = 8", "FIELD = 3"),
}


@pytest.mark.parametrize("name", MUTANTS)
def test_each_pruning_rule_made_wrong_fails_against_the_listing(name):
    old, new = MUTANTS[name]
    assert SOURCE.count(old) == 1, f"the rule {old!r} is no longer in local.py"
    mutant = types.ModuleType("mutant_local")
    exec(compile(SOURCE.replace(old, new), "mutant_local", "exec"), mutant.__dict__)
    rng = random.Random(7)
    for _ in range(500):
        try:
            check(mutant, *location(rng))
        except AssertionError:
            return
    pytest.fail(f"the mutant ({name}) agreed with the listing on 500 locations")
