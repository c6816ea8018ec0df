"""Browser sessions kept on the server, so that they can be ended.

The cookie holds a random id; the ``web_session`` row holds its hash, the
address, an optional scope (one player, for a session opened by an invitation
link) and when it ends. Signing out ends the row: a copied cookie stops
working. Why not Flask-Session: its stores keep each session as an opaque
blob under its id, so "end every session of this address" or "of this
player" would need a scan of them all; here it is one indexed UPDATE, and a
request costs the same one query the viewer look-up cost before.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, or_, select, update

from ..extensions import db
from ..models import GameMaster, Player, WebSession, utcnow
from . import presence

TOUCH = timedelta(minutes=5)  # how stale "last seen" may be (no write per request)


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def start(email: str, *, player_id: int | None = None, now: datetime | None = None) -> str:
    """A new session for ``email`` (scoped to one player if given); returns the cookie value."""
    now = now or utcnow()
    raw = secrets.token_urlsafe(32)
    lifetime = timedelta(seconds=int(current_app.config["PERMANENT_SESSION_LIFETIME"]))
    db.session.add(WebSession(token_hash=_hash(raw), email=email.strip().lower(),
                              player_id=player_id, created_at=now, last_seen_at=now,
                              expires_at=now + lifetime))
    presence.signed_in(email, player_id, now)  # an invited player who signs in has joined
    db.session.commit()
    return raw


def live(raw: str, now: datetime | None = None) -> WebSession | None:
    """The live session with this cookie value, or None (unknown, ended or expired)."""
    now = now or utcnow()
    row = db.session.scalar(select(WebSession).where(WebSession.token_hash == _hash(raw)))
    if row is None or row.ended_at is not None or now >= row.expires_at:
        return None
    if now - row.last_seen_at >= TOUCH:
        row.last_seen_at = now
        db.session.commit()
    return row


def end(raw: str, now: datetime | None = None) -> None:
    """End one session (signing out)."""
    db.session.execute(update(WebSession).where(
        WebSession.token_hash == _hash(raw), WebSession.ended_at.is_(None))
        .values(ended_at=now or utcnow()))
    db.session.commit()


def end_all(email: str, *, player_id: int | None = None, now: datetime | None = None) -> int:
    """End every session of ``email``; with ``player_id`` only those scoped to that player.

    A session opened by an invitation link may end its own kind only: whoever
    holds such a link must not be able to sign the address out of its other
    games. Returns how many sessions ended; the caller commits.
    """
    query = update(WebSession).where(func.lower(WebSession.email) == email.strip().lower(),
                                     WebSession.ended_at.is_(None))
    if player_id is not None:
        query = query.where(WebSession.player_id == player_id)
    return db.session.execute(query.values(ended_at=now or utcnow())).rowcount


def end_for_player(player: Player, old_email: str, now: datetime | None = None) -> None:
    """A player's address changed: end what the old address had of this player.

    Sessions scoped to the player end. Full sessions of the old address reach
    the player's game by the address alone, so they lose it with the change;
    if the old address now plays nowhere and runs nothing, they end too. The
    caller commits.
    """
    now = now or utcnow()
    db.session.execute(update(WebSession).where(
        WebSession.player_id == player.id, WebSession.ended_at.is_(None)).values(ended_at=now))
    old = old_email.strip().lower()
    still_known = db.session.scalar(select(Player.id).where(
        func.lower(Player.email) == old, Player.id != player.id).limit(1)) or db.session.scalar(
        select(GameMaster.id).where(func.lower(GameMaster.email) == old))
    if not still_known:
        end_all(old, now=now)


def forget_before(moment: datetime) -> int:
    """Delete sessions that ended or expired before ``moment``; returns how many."""
    result = db.session.execute(delete(WebSession).where(or_(
        WebSession.ended_at < moment, WebSession.expires_at < moment)))
    db.session.commit()
    return result.rowcount
