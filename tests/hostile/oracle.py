"""The oracle of the turn fuzzers: what one whole turn does to a standing turn.

Written from the rules (README "The turn language", RULES.md section 3), not
from the service's code: a question replaces the question, tips replace tips
gem by gem, DROP withdraws, DROP ALL withdraws every tip first, REPEAT brings
last round's tips back (not those withdrawn in the same turn), and lines that
tip a gem win over REPEAT. A turn is all or nothing.
"""

from __future__ import annotations

from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import Player, Round, TurnVersion
from vpsleuth.orders import TurnChange
from vpsleuth.rules import Turn
from vpsleuth.services import turns


def applied(before: Turn, change: TurnChange, last_round: Turn | None) -> Turn:
    """The standing turn after ``change`` was applied in full to ``before``."""
    tips = {} if change.drop_all else dict(before.tips)
    for gem in change.dropped:
        tips.pop(gem, None)
    if change.repeat and last_round is not None:
        tips.update((g, loc) for g, loc in last_round.tips.items() if g not in change.dropped)
    tips.update(change.tips)
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
