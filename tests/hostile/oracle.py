"""The oracle of the turn fuzzers: what one whole turn does to a standing turn.

Written from the rules (README "The turn language", RULES.md sections 3 and
6a), not from the service's code: a question replaces the question, tips
replace tips gem by gem, and the lines apply in the order written, a later one
winning: DROP withdraws a tip, DROP ALL every tip standing at that point,
REPEAT puts last round's tips over whatever stands for those gems. A turn is
all or nothing.
"""

from __future__ import annotations

from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import Player, Round, TurnVersion
from vpsleuth.orders import DropAll, DropTip, PlaceTip, RepeatLastRound, TurnChange
from vpsleuth.rules import Turn
from vpsleuth.services import turns


def applied(before: Turn, change: TurnChange, last_round: Turn | None) -> Turn:
    """The standing turn after ``change`` was applied in full to ``before``."""
    tips = dict(before.tips)
    for step in change.steps:
        if isinstance(step, PlaceTip):
            tips[step.gem] = step.location
        elif isinstance(step, DropTip):
            tips.pop(step.gem, None)
        elif isinstance(step, DropAll):
            tips.clear()
        elif isinstance(step, RepeatLastRound) and last_round is not None:
            tips.update(last_round.tips)
    question = change.question if change.changes_question else before.question
    return Turn(question=question, tips=tips)


def standing(round_: Round, player: Player) -> Turn:
    """The player's standing turn, read afresh from the database."""
    db.session.expire_all()
    turn = turns.standing_turn(round_, player)
    return Turn(question=turn.question, tips=dict(turn.tips))


def last_round_turn(round_: Round, player: Player) -> Turn | None:
    """What the player had standing in the round before ``round_`` (None in round 1)."""
    previous = round_.game.round(round_.number - 1)
    return standing(previous, player) if previous is not None else None


def last_version_id() -> int:
    """The id of the newest stored turn version (0 if none)."""
    return db.session.scalar(select(func.max(TurnVersion.id))) or 0


def versions_after(version_id: int) -> list[TurnVersion]:
    """Every turn version stored after ``version_id``, oldest first."""
    return list(db.session.scalars(select(TurnVersion).where(TurnVersion.id > version_id)
                                   .order_by(TurnVersion.id)))
