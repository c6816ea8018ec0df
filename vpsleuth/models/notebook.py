"""A player's private notebook for one game: hand-made marks per gem and place, free notes."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .types import UTCDateTime, VerbatimText, utcnow


class PlayerNotebook(db.Model):
    """One player's notebook (a player row is one person in one game).

    ``marks`` holds one character per cell of the 36 x 8 grid (gems in
    information-sheet order, then A-G and X): ``.`` unmarked, ``y`` yes,
    ``n`` no, ``m`` maybe. Nobody but the player reads it, the game master
    included, and it stays when the game ends.
    """

    __tablename__ = "player_notebook"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), unique=True)
    marks: Mapped[str] = mapped_column(String(288), default="")
    notes: Mapped[str] = mapped_column(VerbatimText, default="")
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
