"""Structured turns have no line order: their fields apply in the order that reads as meant.

A text turn applies its lines in order (RULES.md 6a); the structured fields are
written out as drop_all, repeat, drop, question, tips, so "drop_all and repeat"
starts over from last round, and a dropped gem is not brought back by repeat.
"""

from __future__ import annotations

import pytest

from vpsleuth.services import resolution


@pytest.fixture
def round_two(api, cast) -> str:
    """The turn URL in round 2: Ada tipped RD1 and BP2 in round 1, GO3 so far in round 2."""
    turn_url = f"/games/{cast.game.id}/turn"
    api.put(turn_url, cast["ada"], {"tips": {"RD1": "A", "BP2": "B"}})
    resolution.resolve_round(cast.game, number=1)
    api.put(turn_url, cast["ada"], {"tips": {"GO3": "C"}})
    return turn_url


def test_drop_all_and_repeat_start_over_from_last_round(api, cast, round_two):
    turn = api.put(round_two, cast["ada"], {"drop_all": True, "repeat": True}).get_json()
    assert turn["tips"] == {"RD1": "A", "BP2": "B"}


def test_a_dropped_gem_is_not_repeated_and_tips_win_over_repeat(api, cast, round_two):
    turn = api.put(round_two, cast["ada"], {"repeat": True, "drop": ["RD1"],
                                            "tips": {"BP2": "D"}}).get_json()
    assert turn["tips"] == {"BP2": "D", "GO3": "C"}
