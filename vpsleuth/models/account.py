"""Game masters, one-time sign-in links, browser sessions, rate counts and API tokens."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .types import UTCDateTime, utcnow


class GameMaster(db.Model):
    """A GM account (created with ``vpsleuth gm add``); signs in by emailed link."""

    __tablename__ = "game_master"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    language: Mapped[str] = mapped_column(String(2), default="en")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LoginToken(db.Model):
    """One sign-in link: the link is signed; this row makes it single use."""

    __tablename__ = "login_token"

    id: Mapped[int] = mapped_column(primary_key=True)
    nonce: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    # sign_in: asked for on the sign-in page (rate-limited); invitation: sent by a GM,
    # good for ``player_id`` alone; email_change: confirms a player's new address
    purpose: Mapped[str] = mapped_column(String(16), default="sign_in")
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ApiToken(db.Model):
    """A bearer token for /api/v1; only its SHA-256 is stored."""

    __tablename__ = "api_token"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(80), default="")
    game_master_id: Mapped[int | None] = mapped_column(ForeignKey("game_master.id"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class WebSession(db.Model):
    """One signed-in browser: the cookie carries a random id, this row its hash.

    A row, not just a signed cookie, so that signing out ends the session on
    the server (a copied cookie stops working) and all sessions of an address
    can be ended at once. ``player_id`` set: a session from an invitation link,
    good for that one player in that one game and nothing else (no GM role).
    """

    __tablename__ = "web_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class RateEvent(db.Model):
    """One counted request (a sign-in request, say) for sliding-window limits.

    Kept in the database so every worker and process counts the same events;
    ``key`` is a SHA-256, so no address is stored here in clear.
    """

    __tablename__ = "rate_event"
    __table_args__ = (Index("ix_rate_event_bucket_key", "bucket", "key", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    bucket: Mapped[str] = mapped_column(String(32))
    key: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
