"""House rules, tip scoring, rank bonuses, round resolution and the end of the game."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

from .deal import Distribution
from .gems import GEMS, N_, Gem
from .questions import Question


class RulesetError(ValueError):
    """House rules that cannot be played."""


@dataclass(frozen=True)
class Ruleset:
    """The house rules of one game (RULES.md section 7); defaults are VP-Sleuth."""

    rounds: int = 12
    first_bonus_round: int = 5
    bonuses: tuple[int, ...] = (3, 2, 1)
    points_right: int = 1
    points_wrong: int = -2
    early_resolution: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= 52:
            raise RulesetError(N_("a game has 1 to 52 rounds"))
        if self.first_bonus_round < 1:
            raise RulesetError(N_("the first bonus round is round 1 or later"))
        if any(b < 0 for b in self.bonuses) or len(self.bonuses) > 10:
            raise RulesetError(N_("bonus values are at most ten numbers, none negative"))
        if list(self.bonuses) != sorted(self.bonuses, reverse=True):
            raise RulesetError(N_("bonus values must not grow with rank (e.g. 3,2,1)"))
        if self.points_right <= 0:
            raise RulesetError(N_("a correct tip must earn more than 0 points"))
        if self.points_wrong > 0:
            raise RulesetError(N_("a wrong tip cannot earn points"))

    def is_bonus_round(self, number: int) -> bool:
        return number >= self.first_bonus_round


@dataclass(frozen=True)
class TipScore:
    correct: int
    wrong: int
    score: int


def score_tips(tips: Mapping[Gem, str], distribution: Distribution, rules: Ruleset) -> TipScore:
    """+right per correct tip, wrong (negative) per wrong tip; one tip per gem."""
    correct = sum(1 for gem, loc in tips.items() if distribution[gem] == loc)
    wrong = len(tips) - correct
    return TipScore(correct, wrong, correct * rules.points_right + wrong * rules.points_wrong)


def rank_bonuses(correct: Mapping[Hashable, int], bonuses: tuple[int, ...]) -> dict:
    """Dense rank over distinct counts of correct tips; zero correct earns nothing.

    Counts 30, 30, 28, 25, 25, 20 with bonuses (3, 2, 1) give 3, 3, 2, 1, 1, 0.
    """
    distinct = sorted({c for c in correct.values() if c > 0}, reverse=True)
    award = {count: bonuses[i] for i, count in enumerate(distinct[: len(bonuses)])}
    return {who: award.get(count, 0) for who, count in correct.items()}


def competition_ranks(totals: Mapping[Hashable, int]) -> dict:
    """Standings ranks 1, 1, 3, ...: equal totals share a rank."""
    ordered = sorted(totals.values(), reverse=True)
    return {who: ordered.index(total) + 1 for who, total in totals.items()}


@dataclass(frozen=True)
class Turn:
    """What one player has standing when the round resolves."""

    question: Question | None = None
    tips: Mapping[Gem, str] = field(default_factory=dict)

    @property
    def is_empty(self) -> bool:
        return self.question is None and not self.tips


@dataclass(frozen=True)
class PlayerResult:
    answer: int | None
    correct: int
    wrong: int
    tip_score: int
    bonus: int
    points: int
    submitted: bool

    @property
    def solved(self) -> bool:
        """All 36 gems located with no wrong tip."""
        return self.correct == len(GEMS) and self.wrong == 0


@dataclass(frozen=True)
class RoundOutcome:
    number: int
    results: Mapping[Hashable, PlayerResult]
    game_over: bool


def resolve(
    number: int,
    turns: Mapping[Hashable, Turn],
    active: list[Hashable],
    distribution: Distribution,
    rules: Ruleset,
) -> RoundOutcome:
    """Resolve one round for the active players; a player with no turn scores 0."""
    scores = {p: score_tips(turns.get(p, Turn()).tips, distribution, rules) for p in active}
    bonus = (
        rank_bonuses({p: s.correct for p, s in scores.items()}, rules.bonuses)
        if rules.is_bonus_round(number) else dict.fromkeys(active, 0)
    )
    results = {}
    for p in active:
        turn, s = turns.get(p, Turn()), scores[p]
        results[p] = PlayerResult(
            answer=turn.question.answer(distribution) if turn.question else None,
            correct=s.correct, wrong=s.wrong, tip_score=s.score, bonus=bonus[p],
            points=s.score + bonus[p], submitted=not turn.is_empty,
        )
    return RoundOutcome(number, results, is_game_over(number, results, rules))


def is_game_over(number: int, results: Mapping[Hashable, PlayerResult], rules: Ruleset) -> bool:
    """After the last round, once every active player has solved the deal, or after a
    round with no active player left (RULES.md 6): ``results`` hold the active players."""
    if number >= rules.rounds or not results:
        return True
    return all(r.solved for r in results.values())
