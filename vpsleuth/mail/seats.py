"""The mails of a seat handed on: the newcomer's invitation, a word to the old address."""

from __future__ import annotations

from ..extensions import db
from ..models import GameMaster, Player, SeatChange
from ..services.auth import sign_in_url
from . import outbox
from .notify import has_mailbox


def seat_handed_over(player: Player, *, change: SeatChange, old_language: str,
                     token: str) -> None:
    """Invite the newcomer to the seat; tell the old address, politely, that it passed on.

    The old address's mail belongs to no seat (``player`` None): it carries no
    reply key, and the newcomer's data never holds it.
    """
    game = player.game
    gm = db.session.get(GameMaster, game.game_master_id) if game.game_master_id else None
    gm_name = gm.name if gm else None
    if has_mailbox(player):
        outbox.queue("invitation", player.email, "seat_invitation", player.language,
                     game=game, player=player, link=sign_in_url(token), gm_name=gm_name,
                     from_round=change.from_round)
    outbox.queue("seat_handed_on", change.old_email, "seat_handed_on", old_language, game=game,
                 old_name=change.old_name, gm_name=gm_name, from_round=change.from_round)
