"""An independent reference scorer for whole games with the missed-turn rules.

Written from RULES.md (sections 4 and 8) without the rules core: tips per round
(gem code -> placeholder, or None for "no turn at all"), the game's missed-turn
rule and, per round, the players whose announced absence covers its deadline.
"""

from __future__ import annotations

from collections.abc import Mapping


def repeats(rule: str, sent: bool, absent: bool, last_tips: int = 1) -> bool:
    """RULES.md 8: a seat with no turn plays last round's tips again under the rule
    (nothing is repeated where last round left no tips: round 1, an empty turn)."""
    if sent or not last_tips:
        return False
    return rule == "repeat" or (rule == "repeat-when-absent" and absent)


def reference_rounds(
    deal: Mapping[str, str],
    rounds: list[Mapping[str, Mapping[str, str] | None]],
    *, rule: str, absent: list[set[str]] | None = None, first_bonus_round: int = 5,
    bonuses: tuple[int, ...] = (3, 2, 1), right: int = 1, wrong: int = -2,
) -> list[dict[str, dict]]:
    """Per round, per seat: tip_score, bonus, points, total, repeated, tips (the count)."""
    absent = absent or [set() for _ in rounds]
    standing: dict[str, dict[str, str]] = {}
    totals: dict[str, int] = {}
    out = []
    for number, sent in enumerate(rounds, start=1):
        played: dict[str, dict[str, str]] = {}
        repeated: dict[str, bool] = {}
        for seat, tips in sent.items():
            repeated[seat] = tips is None and repeats(
                rule, False, seat in absent[number - 1], len(standing.get(seat, {})))
            if tips is not None:
                played[seat] = dict(tips)
            elif repeated[seat]:
                played[seat] = dict(standing.get(seat, {}))
            else:
                played[seat] = {}
        correct = {s: sum(deal[g] == p for g, p in t.items()) for s, t in played.items()}
        counts = sorted({c for c in correct.values() if c > 0}, reverse=True)
        award = dict(zip(counts, bonuses, strict=False)) if number >= first_bonus_round else {}
        results = {}
        for seat, tips in played.items():
            score = correct[seat] * right + (len(tips) - correct[seat]) * wrong
            bonus = award.get(correct[seat], 0)
            totals[seat] = totals.get(seat, 0) + score + bonus
            results[seat] = {"tip_score": score, "bonus": bonus, "points": score + bonus,
                             "total": totals[seat], "repeated": repeated[seat],
                             "tips": len(tips)}
        standing = played
        out.append(results)
    return out
