"""Password-free sign-in: a signed, single-use, time-limited link sent by mail."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import func, select

from ..extensions import db
from ..i18n import N_
from ..models import GameMaster, LoginToken, Player, PlayerNotebook, utcnow
from . import limits
from .errors import ServiceError
from .links import base_url

NOT_VALID = N_("this sign-in link is not valid; request a new one")


class SignInRefused(ServiceError):
    code = "sign_in_refused"


class RateLimited(ServiceError):
    code = "rate_limited"


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="vpsleuth-sign-in")


def sign_in_url(token: str) -> str:
    """The link a token is used at: in a mail, or for the GM to forward by hand."""
    return f"{base_url()}/signin/{token}"


def known_email(email: str) -> bool:
    """An address that may sign in: a player's, a GM's, or one whose seat was handed on
    and whose notebook is kept for it (to download it with the rest of its data)."""
    email = email.strip().lower()
    return bool(
        db.session.scalar(select(Player.id).where(func.lower(Player.email) == email).limit(1))
        or db.session.scalar(select(GameMaster.id).where(func.lower(GameMaster.email) == email))
        or db.session.scalar(select(PlayerNotebook.id).where(PlayerNotebook.kept_by == email)
                             .limit(1)))


def issue_token(email: str, now: datetime | None = None, *, purpose: str = "sign_in",
                player: Player | None = None, old_email: str | None = None) -> str:
    """A new link token for ``email`` (added to the session; the caller commits).

    ``purpose="invitation"`` (sent by a GM) needs the ``player`` it is for: it
    opens a session for that one player and nothing else. ``"email_change"``
    confirms ``email`` as the new address of ``player``, whose address must
    still be ``old_email`` when it is used. Sign-in links the address asked
    for itself are limited by ``request_sign_in``.
    """
    now = now or utcnow()
    email = email.strip().lower()
    if purpose != "sign_in" and player is None:
        raise ValueError(f"a {purpose} link is for one player")
    nonce = secrets.token_urlsafe(24)
    ttl = (timedelta(hours=current_app.config["INVITATION_HOURS"]) if purpose == "invitation"
           else timedelta(minutes=current_app.config["SIGN_IN_MINUTES"]))
    db.session.add(LoginToken(nonce=nonce, email=email, purpose=purpose, created_at=now,
                              expires_at=now + ttl, player_id=player.id if player else None))
    data = {"n": nonce, "e": email}
    if old_email is not None:
        data["o"] = old_email.strip().lower()
    return _serializer().dumps(data)


def request_sign_in(email: str, client: str, now: datetime | None = None) -> str | None:
    """A sign-in link for ``email`` asked for from ``client`` (an IP), or None.

    Every request counts, for known and unknown addresses alike, so the answer
    never tells who plays. Over the client's limit: RateLimited (the same for
    every address). Over the address's limits: None, and no mail is sent; the
    links sent in the past hour still work (they last SIGN_IN_MINUTES, at
    least the hour counted), so nobody else's requests can lock a player out.
    """
    now = now or utcnow()
    email = email.strip().lower()
    config = current_app.config
    hour = timedelta(hours=1)
    if limits.count("sign_in_client", client, hour, now) >= config["SIGN_IN_PER_CLIENT_PER_HOUR"]:
        raise RateLimited(N_("too many sign-in requests from your network in the past hour; "
                             "please wait a while, or use the newest link you were sent"))
    limits.record("sign_in_client", client, now)
    pair = f"{email} {client}"
    over = (limits.count("sign_in_pair", pair, hour, now) >= config["SIGN_IN_PER_HOUR"]
            or limits.count("sign_in_address", email, hour, now)
            >= config["SIGN_IN_PER_ADDRESS_PER_HOUR"])
    limits.record("sign_in_pair", pair, now)
    limits.record("sign_in_address", email, now)
    token = None if over or not known_email(email) else issue_token(email, now)
    db.session.commit()
    return token


@dataclass(frozen=True)
class Redeemed:
    """What a used link grants: an address, and the one player it is limited to, if any."""

    email: str
    player_id: int | None
    purpose: str


def redeem_token(token: str, now: datetime | None = None, *,
                 purposes: tuple[str, ...] = ("sign_in", "invitation")) -> Redeemed:
    """What a valid, unused, unexpired link of one of ``purposes`` grants; marks it used."""
    now = now or utcnow()
    try:
        data = _serializer().loads(token)
        nonce, email, old = data["n"], data["e"], data.get("o")
    except (BadSignature, KeyError, TypeError, AttributeError):
        raise SignInRefused(NOT_VALID) from None
    row = db.session.scalar(select(LoginToken).where(LoginToken.nonce == nonce)
                            .with_for_update())
    if row is None or row.email != email or row.purpose not in purposes:
        raise SignInRefused(NOT_VALID)
    if row.used_at is not None:
        raise SignInRefused(N_("this sign-in link has been used already; request a new one"))
    if now >= row.expires_at:
        raise SignInRefused(N_("this sign-in link has expired; request a new one"))
    if row.player_id is not None:
        player = db.session.get(Player, row.player_id)
        holder = old if row.purpose == "email_change" else email
        if player is None or player.email.strip().lower() != holder:
            # The address was changed since: the old address's links are void.
            raise SignInRefused(N_("this link is no longer valid: the address it was sent to "
                                   "has changed; request a new one"))
    row.used_at = now
    db.session.commit()
    return Redeemed(email, row.player_id, row.purpose)
