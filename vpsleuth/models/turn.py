"""Turns: every version received, and the standing question and tips it left."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .types import UTCDateTime, VerbatimText, utcnow

# "repeat": the missed-turn rule played last round's tips (services/missed_turns.py).
CHANNELS = ("cli", "web", "email", "gm", "api", "bot", "repeat")


class TurnVersion(db.Model):
    """One submission exactly as it reached us, stored before it is parsed.

    status: received -> accepted | refused (with the errors as text).
    """

    __tablename__ = "turn_version"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    round_id: Mapped[int | None] = mapped_column(ForeignKey("round.id"), index=True)
    channel: Mapped[str] = mapped_column(String(8))
    text: Mapped[str] = mapped_column(VerbatimText)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    entered_by: Mapped[str] = mapped_column(String(120))
    status: Mapped[str] = mapped_column(String(10), default="received")
    errors: Mapped[str] = mapped_column(Text, default="")


class StandingQuestion(db.Model):
    """A player's question for a round; answer filled in at resolution."""

    __tablename__ = "standing_question"
    __table_args__ = (UniqueConstraint("round_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    question: Mapped[str] = mapped_column(String(16))  # Question.codes, e.g. "E:BO"
    version_id: Mapped[int] = mapped_column(ForeignKey("turn_version.id"))
    answer: Mapped[int | None] = mapped_column(Integer)


class StandingTip(db.Model):
    """A player's tip for one gem in one round; one row per gem."""

    __tablename__ = "standing_tip"
    __table_args__ = (UniqueConstraint("round_id", "player_id", "gem"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    gem: Mapped[str] = mapped_column(String(3))
    location: Mapped[str] = mapped_column(String(1))
    version_id: Mapped[int] = mapped_column(ForeignKey("turn_version.id"))


class RoundResult(db.Model):
    """One player's published result for one round (sums only)."""

    __tablename__ = "round_result"
    __table_args__ = (UniqueConstraint("round_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    submitted: Mapped[bool] = mapped_column(default=False)
    tips: Mapped[int] = mapped_column(Integer, default=0)
    # correct/wrong are secret until the game ends: never shown to players before.
    correct: Mapped[int] = mapped_column(Integer, default=0)
    wrong: Mapped[int] = mapped_column(Integer, default=0)
    tip_score: Mapped[int] = mapped_column(Integer, default=0)
    bonus: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    rank: Mapped[int] = mapped_column(Integer, default=0)
    # The missed-turn rule played last round's tips for the player (no turn came).
    repeated: Mapped[bool] = mapped_column(default=False, server_default=false())
