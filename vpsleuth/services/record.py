"""The public record of a game, read from the stored answers of resolved rounds.

The same source the round reports list (StandingQuestion rows with their
answers); the distribution (GameSecret) is never read here.
"""

from __future__ import annotations

from sqlalchemy import select

from ..engine import Answered, PublicRecord
from ..extensions import db
from ..models import Game, Player, StandingQuestion
from ..rules import Question
from .reports import resolved_rounds


def public_record(game: Game) -> PublicRecord:
    """Every answered question of the game's resolved rounds, and its house rules."""
    done = resolved_rounds(game)
    ids = [r.id for r in done]
    rows = db.session.execute(select(
        StandingQuestion.round_id, Player.name, StandingQuestion.question,
        StandingQuestion.answer)
        .join(Player, Player.id == StandingQuestion.player_id)
        .where(StandingQuestion.round_id.in_(ids), StandingQuestion.answer.is_not(None))
        .order_by(StandingQuestion.round_id, Player.name, StandingQuestion.id)).all() if ids else []
    by_round: dict[int, list[Answered]] = {i: [] for i in ids}
    parsed: dict[str, Question] = {}
    for round_id, name, codes, answer in rows:
        if codes not in parsed:
            parsed[codes] = Question.from_codes(codes)
        by_round[round_id].append(Answered(parsed[codes], answer, name))
    return PublicRecord(game.ruleset, tuple(tuple(by_round[r.id]) for r in done))
