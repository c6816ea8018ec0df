"""A season among strangers: absences, seats that change hands, the game board."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from ..rules.missed import MISSED_TURN_RULES
from .game import Game, Player
from .types import UTCDateTime, utcnow

__all__ = ["BOARD_MAIL", "MISSED_TURN_RULES", "Absence", "BoardPost", "SeatChange"]

BOARD_MAIL = ("each", "digest", "none")


class Absence(db.Model):
    """A player's announced absence: from ``starts`` to ``ends`` (both dates included,
    in the player's own time zone). The note is for the GM only."""

    __tablename__ = "absence"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    starts: Mapped[date] = mapped_column(Date)
    ends: Mapped[date] = mapped_column(Date)
    note: Mapped[str] = mapped_column(Text, default="")
    channel: Mapped[str] = mapped_column(String(8))  # web, api, email, gm
    entered_by: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # Withdrawn by the player or the GM: kept (audit), no longer counts.
    cancelled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    player: Mapped[Player] = relationship()

    def __repr__(self) -> str:
        return f"<Absence {self.id} player={self.player_id} {self.starts}..{self.ends}>"


class SeatChange(db.Model):
    """A seat handed to a substitute by the GM: who held it, who holds it, from which round."""

    __tablename__ = "seat_change"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    from_round: Mapped[int] = mapped_column(Integer)
    old_name: Mapped[str] = mapped_column(String(80))
    old_email: Mapped[str] = mapped_column(String(254))
    new_name: Mapped[str] = mapped_column(String(80))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    actor: Mapped[str] = mapped_column(String(120))

    player: Mapped[Player] = relationship()


class BoardPost(db.Model):
    """A short public message on a game's board, by a player or the GM (player_id None).

    ``pinned``: a GM announcement. Hidden by the GM: kept, shown as hidden. Deleted
    by its author: the text is gone, the row stays so the paging does not shift.
    """

    __tablename__ = "board_post"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    author: Mapped[str] = mapped_column(String(80))  # the name as posted
    body: Mapped[str] = mapped_column(Text)
    channel: Mapped[str] = mapped_column(String(8))  # web, api, email, cli
    pinned: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    hidden_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    hidden_by: Mapped[str | None] = mapped_column(String(120))
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    game: Mapped[Game] = relationship()
    player: Mapped[Player | None] = relationship()

    def __repr__(self) -> str:
        return f"<BoardPost {self.id} game={self.game_id}>"
