"""A player changes their own address: a link to the new address confirms it.

The change itself is the GM's change (services.gm.change_email), so whoever
makes it, the old address loses what it held of the player: sessions, API
tokens, feed links and reply keys.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..extensions import db
from ..i18n import N_
from ..models import Player, utcnow
from . import auth, events, gm, limits
from .errors import Invalid
from .games import EMAIL_PATTERN

CHANGES_PER_HOUR = 3  # confirmation mails a player may have sent to new addresses an hour


def request_change(player: Player, new_email: str, now: datetime | None = None) -> str:
    """Mail a confirmation link to ``new_email``; returns the address it went to.

    Nothing changes until the link is opened: the new address must be the
    player's own. Raises Invalid for a malformed or taken address, or when too
    many were asked for this hour.
    """
    now = now or utcnow()
    new_email = new_email.strip()
    if not EMAIL_PATTERN.match(new_email):
        raise Invalid(N_("{address} is not an email address (like name@example.org)"),
                      address=repr(new_email))
    if new_email.lower() == player.email.lower():
        raise Invalid(N_("that is your address already"))
    if any(p.email.lower() == new_email.lower() for p in player.game.players if p is not player):
        raise Invalid(N_("{address} already plays in '{game}'"), address=new_email,
                      game=player.game.name)
    key = str(player.id)
    if limits.count("address_change", key, timedelta(hours=1), now) >= CHANGES_PER_HOUR:
        raise Invalid(N_("too many address changes asked for in the past hour; please wait"))
    limits.record("address_change", key, now)
    token = auth.issue_token(new_email, now, purpose="email_change", player=player,
                             old_email=player.email)
    events.address_change_requested.send(player, new_email=new_email, token=token)
    db.session.commit()
    return new_email


def confirm_change(token: str, now: datetime | None = None) -> Player:
    """Open a confirmation link: the player's address becomes the one it went to."""
    granted = auth.redeem_token(token, now, purposes=("email_change",))
    player = db.session.get(Player, granted.player_id)
    gm.change_email(player, granted.email, actor=f"{player.email} (player)")
    return player
