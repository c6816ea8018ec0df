"""Reading turns: what a player has standing in a round, and who has sent one.

Submitting a turn (services/turns.py) writes what these read; the pages, the
API, the CLI, the mails and the bots read it here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from ..extensions import db
from ..models import Game, Player, Round, StandingQuestion, StandingTip, TurnVersion
from ..rules import GEM_BY_CODE, Question, Turn

# "The turn received last stands": by the time it came in; of two at the same
# moment, the one stored later. The database's numbering alone is not receipt
# order (a turn received first may be stored second).
RECEIPT_ORDER_LAST_FIRST = (TurnVersion.received_at.desc(), TurnVersion.id.desc())


def standing_turn(round_: Round, player: Player) -> Turn:
    """The question and tips a player has standing in a round."""
    q = db.session.scalar(select(StandingQuestion).where(
        StandingQuestion.round_id == round_.id, StandingQuestion.player_id == player.id))
    tips = db.session.scalars(select(StandingTip).where(
        StandingTip.round_id == round_.id, StandingTip.player_id == player.id))
    return Turn(question=Question.from_codes(q.question) if q else None,
                tips={GEM_BY_CODE[t.gem]: t.location for t in tips})


@dataclass(frozen=True)
class TurnStatus:
    """One row of the GM's status board: no tip contents, only counts."""

    player: Player
    submitted: bool
    last_at: datetime | None
    channel: str | None
    has_question: bool
    tips: int


def round_status(game: Game) -> list[TurnStatus]:
    """Who has a turn standing in the open round, when and by which channel."""
    round_ = game.open_round
    if round_ is None:
        return []
    rows = []
    for p in game.active_players:
        last = db.session.scalar(select(TurnVersion).where(
            TurnVersion.round_id == round_.id, TurnVersion.player_id == p.id,
            TurnVersion.status == "accepted").order_by(*RECEIPT_ORDER_LAST_FIRST).limit(1))
        turn = standing_turn(round_, p)
        rows.append(TurnStatus(p, not turn.is_empty, last.received_at if last else None,
                               last.channel if last else None, turn.question is not None,
                               len(turn.tips)))
    return rows
