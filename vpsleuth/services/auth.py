"""Password-free sign-in: a signed, single-use, time-limited link sent by mail."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import func, select

from ..extensions import db
from ..models import GameMaster, LoginToken, Player, utcnow
from .errors import ServiceError


class SignInRefused(ServiceError):
    code = "sign_in_refused"


class RateLimited(ServiceError):
    code = "rate_limited"


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="vpsleuth-sign-in")


def known_email(email: str) -> bool:
    email = email.strip().lower()
    return bool(
        db.session.scalar(select(Player.id).where(func.lower(Player.email) == email).limit(1))
        or db.session.scalar(select(GameMaster.id).where(func.lower(GameMaster.email) == email)))


def issue_token(email: str, now: datetime | None = None, *, purpose: str = "sign_in") -> str:
    """A new sign-in token for ``email`` (added to the session, caller commits).

    At most SIGN_IN_PER_HOUR requested tokens per address per hour; invitations
    (``purpose="invitation"``, sent by a GM) do not count against a player.
    """
    now = now or utcnow()
    email = email.strip().lower()
    recent = db.session.scalar(select(func.count()).select_from(LoginToken).where(
        LoginToken.email == email, LoginToken.purpose == "sign_in",
        LoginToken.created_at > now - timedelta(hours=1)))
    if purpose == "sign_in" and recent >= current_app.config["SIGN_IN_PER_HOUR"]:
        raise RateLimited("too many sign-in links requested for this address; "
                          "please wait an hour or use the newest link you have")
    nonce = secrets.token_urlsafe(24)
    ttl = (timedelta(hours=current_app.config["INVITATION_HOURS"]) if purpose == "invitation"
           else timedelta(minutes=current_app.config["SIGN_IN_MINUTES"]))
    db.session.add(LoginToken(nonce=nonce, email=email, purpose=purpose, created_at=now,
                              expires_at=now + ttl))
    return _serializer().dumps({"n": nonce, "e": email})


def redeem_token(token: str, now: datetime | None = None) -> str:
    """The email address a valid, unused, unexpired token was issued for; marks it used."""
    now = now or utcnow()
    try:
        data = _serializer().loads(token)
        nonce, email = data["n"], data["e"]
    except (BadSignature, KeyError, TypeError):
        raise SignInRefused("this sign-in link is not valid; request a new one") from None
    row = db.session.scalar(select(LoginToken).where(LoginToken.nonce == nonce)
                            .with_for_update())
    if row is None or row.email != email:
        raise SignInRefused("this sign-in link is not valid; request a new one")
    if row.used_at is not None:
        raise SignInRefused("this sign-in link has been used already; request a new one")
    if now >= row.expires_at:
        raise SignInRefused("this sign-in link has expired; request a new one")
    row.used_at = now
    db.session.commit()
    return email
