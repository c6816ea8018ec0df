"""A player's private notebook for one game: hand-made marks per gem and place, free notes."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .types import UTCDateTime, VerbatimText, utcnow


class PlayerNotebook(db.Model):
    """One player's notebook (a player row is one person in one game).

    ``marks`` holds one character per cell of the 36 x 8 grid (gems in
    information-sheet order, then A-G and X): ``.`` unmarked, ``y`` yes,
    ``n`` no, ``m`` maybe. Nobody but the player reads it, the game master
    included, and it stays when the game ends.

    When the GM hands the seat to a substitute (services/seats.py) the notebook
    stays its writer's: it leaves the seat (``player_id`` None) and is kept for
    the address that wrote it (``kept_by``, of game ``kept_game_id``), which
    finds it in the export of its data; the substitute starts with an empty one.
    """

    __tablename__ = "player_notebook"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), unique=True)
    kept_by: Mapped[str | None] = mapped_column(String(254), index=True)
    kept_game_id: Mapped[int | None] = mapped_column(Integer)
    marks: Mapped[str] = mapped_column(String(288), default="")
    notes: Mapped[str] = mapped_column(VerbatimText, default="")
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
