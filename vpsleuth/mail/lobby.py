"""The mails of open games: a new request to its GM, a declined one to the requester.

An accepted request needs no mail of its own: the requester gets the normal
invitation (services.games.add_player). Every function only queues; the
service that calls it commits.
"""

from __future__ import annotations

from ..extensions import db
from ..models import Game, GameMaster, JoinRequest
from ..services.links import base_url
from . import outbox


def join_requested(request: JoinRequest, game: Game) -> None:
    """Tell the game's GM that someone asks to join, with a link to decide."""
    gm = db.session.get(GameMaster, game.game_master_id) if game.game_master_id else None
    if gm is None:
        return  # a game made on the command line has no GM account to tell
    outbox.queue("join_request", gm.email, "join_requested", gm.language, game=game,
                 request=request, gm_name=gm.name,
                 link=f"{base_url()}/gm/games/{game.id}#join-requests")


def join_declined(request: JoinRequest, game: Game) -> None:
    """Tell the requester, in the language they asked in, that the GM said no."""
    outbox.queue("join_declined", request.email, "join_declined", request.language,
                 game=game, request=request, link=f"{base_url()}/games/open")
