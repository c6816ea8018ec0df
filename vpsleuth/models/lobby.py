"""Requests to join an open game, which its GM accepts or declines."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .game import Game
from .types import UTCDateTime, utcnow


class JoinRequest(db.Model):
    """A signed-in visitor's wish to play in an open game: one per address per game.

    state: pending -> accepted (``player_id`` is the player it became) or declined.
    ``email`` is stored in lower case, so "one per address" holds whatever the case.
    """

    __tablename__ = "join_request"
    __table_args__ = (UniqueConstraint("game_id", "email"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    email: Mapped[str] = mapped_column(String(254))
    name: Mapped[str] = mapped_column(String(80))  # the name to play under
    language: Mapped[str] = mapped_column(String(2), default="en")
    message: Mapped[str] = mapped_column(Text, default="")
    state: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))

    game: Mapped[Game] = relationship()

    def __repr__(self) -> str:
        return f"<JoinRequest {self.id} game={self.game_id} {self.state}>"
