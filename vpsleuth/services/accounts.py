"""GM accounts and API bearer tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import func, select

from ..extensions import db
from ..i18n import N_
from ..models import ApiToken, GameMaster, Player, utcnow
from .errors import Invalid, NotFound
from .games import EMAIL_PATTERN, audit, check_one_line

TOKEN_TOUCH = timedelta(minutes=5)  # how stale a token's "last used" time may be


def create_game_master(email: str, name: str, language: str = "en") -> GameMaster:
    email = email.strip()
    if not EMAIL_PATTERN.match(email):
        raise Invalid(N_("{address} is not an email address (like name@example.org)"),
                      address=repr(email))
    if db.session.scalar(select(GameMaster.id).where(
            func.lower(GameMaster.email) == email.lower())):
        raise Invalid(N_("{address} is a game master already"), address=email)
    check_one_line(name, N_("a game master's name"))
    gm = GameMaster(email=email, name=name.strip() or email, language=language)
    db.session.add(gm)
    db.session.commit()
    return gm


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def issue_api_token(*, game_master: GameMaster | None = None, player: Player | None = None,
                    label: str = "", actor: str | None = None) -> tuple[ApiToken, str]:
    """A new bearer token; the raw value is shown once and only its hash is kept.

    With ``actor`` the issue goes to the audit log (an entry with no game).
    """
    if (game_master is None) == (player is None):
        raise Invalid(N_("a token belongs to one game master or one player"))
    check_one_line(label, N_("a token's label"))
    raw = "vps_" + secrets.token_urlsafe(32)
    token = ApiToken(token_hash=_hash(raw), label=label.strip()[:80],
                     game_master_id=game_master.id if game_master else None,
                     player_id=player.id if player else None)
    db.session.add(token)
    if actor is not None:
        db.session.flush()
        audit(None, actor, "issue_api_token", token=token.id, label=token.label)
    db.session.commit()
    return token, raw


def token_for(raw: str, now: datetime | None = None) -> ApiToken | None:
    """The live token with this raw value, or None (unknown or revoked).

    Its "last used" time is written at most every TOKEN_TOUCH: a script sending
    many requests should not cost a write and a commit each.
    """
    token = db.session.scalar(select(ApiToken).where(ApiToken.token_hash == _hash(raw)))
    if token is None or token.revoked_at is not None:
        return None
    now = now or utcnow()
    if token.last_used_at is None or now - token.last_used_at >= TOKEN_TOUCH:
        token.last_used_at = now
        db.session.commit()
    return token


def revoke_api_token(token_id: int, *, owner_gm: GameMaster | None = None,
                     owner_player_ids: set[int] = frozenset(),
                     actor: str | None = None) -> None:
    """Revoke one of the owner's tokens; with ``actor`` the audit log records it."""
    token = db.session.get(ApiToken, token_id)
    mine = token is not None and (
        (owner_gm is not None and token.game_master_id == owner_gm.id)
        or token.player_id in owner_player_ids)
    if not mine:
        raise NotFound(N_("no such token"))
    token.revoked_at = utcnow()
    if actor is not None:
        audit(None, actor, "revoke_api_token", token=token.id, label=token.label)
    db.session.commit()


def api_tokens_of_players(player_ids: set[int]) -> list[ApiToken]:
    """The live (not revoked) API tokens of these players, oldest first."""
    if not player_ids:
        return []
    return list(db.session.scalars(select(ApiToken).where(
        ApiToken.player_id.in_(sorted(player_ids)), ApiToken.revoked_at.is_(None))
        .order_by(ApiToken.id)))
