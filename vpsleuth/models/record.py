"""A person across games: their profile (display name, leaderboard choice) and ratings.

A player row is one address in one game; what a person keeps beyond one game
hangs on their address, in lower case: ``Profile``. Ratings (services/ratings.py)
are kept per profile, and each rated game leaves one ``RatingChange`` per seat,
the history a rebuild must reproduce exactly.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .types import UTCDateTime, utcnow


class Profile(db.Model):
    """What one address keeps across its games: made when first needed, gone when it leaves."""

    __tablename__ = "profile"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)  # lower case
    # The name shown in the archive and on the leaderboard where no game sets another.
    display_name: Mapped[str | None] = mapped_column(String(40))
    hide_from_leaderboard: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Rating(db.Model):
    """A person's current rating (OpenSkill Plackett-Luce): mu, sigma and the ordinal shown."""

    __tablename__ = "rating"

    profile_id: Mapped[int] = mapped_column(ForeignKey("profile.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float, index=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RatingChange(db.Model):
    """One seat of one rated game: its rank and the rating before and after.

    The rows of a game are written together, in the transaction that ends it;
    their ids give the order in which games were rated, which a rebuild keeps.
    ``profile_id`` is None for a seat whose person left (services/leaving.py).
    """

    __tablename__ = "rating_change"
    __table_args__ = (UniqueConstraint("game_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    profile_id: Mapped[int | None] = mapped_column(ForeignKey("profile.id"), index=True)
    rank: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
