"""The missed-turn rule (RULES.md section 8), pure: whether a seat's turn is repeated.

``none`` (the standard game): no turn, no question, no tips, no points from tips.
``repeat``: a player with no turn at the deadline plays last round's standing
tips again (never the question). ``repeat-when-absent``: the same, but only
while an absence the player announced covers the deadline. A player who sent
a turn, even an empty one, is never repeated; nor is one with no tips to repeat.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from .gems import Gem

MISSED_TURN_RULES = ("none", "repeat", "repeat-when-absent")


def check_missed_turn_rule(rule: str) -> str:
    """``rule`` itself, or ValueError when it is not one of MISSED_TURN_RULES."""
    if rule not in MISSED_TURN_RULES:
        raise ValueError(f"missed-turn rule must be one of {', '.join(MISSED_TURN_RULES)}")
    return rule


def is_repeated(rule: str, *, sent_a_turn: bool, absent_at_deadline: bool,
                last_tips: Mapping[Gem, str] | Mapping[str, str]) -> bool:
    """Whether the seat plays last round's tips again this round."""
    check_missed_turn_rule(rule)
    if sent_a_turn or not last_tips or rule == "none":
        return False
    return rule == "repeat" or absent_at_deadline


def covers(starts: date, ends: date, day: date) -> bool:
    """Whether an absence from ``starts`` to ``ends`` (both included) covers ``day``."""
    return starts <= day <= ends
