"""The public record of a game: every answered question of the resolved rounds.

This is all a perfect detective may know. It carries the house rules too, so
that whoever reads the record (bots, the game told afterwards) can weigh tips
by the game's own points; the deal itself (7 x 5 + X) is fixed by the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from vpsleuth.rules import Question, Ruleset


@dataclass(frozen=True)
class Answered:
    """One public answer: ``question`` was answered ``answer``."""

    question: Question
    answer: int
    asked_by: str | None = None


@dataclass(frozen=True)
class PublicRecord:
    """The house rules and the answers of the resolved rounds, round 1 first."""

    rules: Ruleset
    rounds: tuple[tuple[Answered, ...], ...]

    def upto(self, n: int) -> PublicRecord:
        """The record as it stood after round ``n`` (0: before any round)."""
        if n < 0:
            raise ValueError("a round number is 0 or more")
        return PublicRecord(self.rules, self.rounds[:n])

    def answers(self) -> tuple[Answered, ...]:
        """Every answer, in the order given."""
        return tuple(a for round_ in self.rounds for a in round_)
