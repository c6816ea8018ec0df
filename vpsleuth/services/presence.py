"""Whether an invited player has shown up: signed in, or sent a turn themselves.

Until then the GM's pages say "invited", not "joined": an invitation that went
to a wrong or dead address shows as such. Set once (Player.first_signed_in_at)
and never cleared; the caller commits.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, update

from ..extensions import db
from ..models import Player, utcnow

# Turns that show the player themselves at work (the GM's and the command line's do not).
OWN_CHANNELS = frozenset({"email", "web", "api"})


def signed_in(email: str, player_id: int | None = None, now: datetime | None = None) -> None:
    """A session started for ``email``: all its players have shown up (with ``player_id``,
    a session opened by that player's invitation link, that one player)."""
    query = update(Player).where(func.lower(Player.email) == email.strip().lower(),
                                 Player.first_signed_in_at.is_(None))
    if player_id is not None:
        query = query.where(Player.id == player_id)
    db.session.execute(query.values(first_signed_in_at=now or utcnow())
                       .execution_options(synchronize_session=False))


def turn_received(player: Player, channel: str, now: datetime | None = None) -> None:
    """A turn from ``player`` arrived; by mail, web or API it shows they have shown up.

    A conditional UPDATE: of turns sent at once, the first one's time stands.
    """
    if channel in OWN_CHANNELS and player.first_signed_in_at is None:
        db.session.execute(update(Player).where(Player.id == player.id,
                                                Player.first_signed_in_at.is_(None))
                           .values(first_signed_in_at=now or utcnow())
                           .execution_options(synchronize_session=False))
