"""Open games for a game master's tools: the listing, the requests to join, the decisions.

Only the game's own GM token reaches these (gm_game: 403 for the game's
players, 404 for everybody else), as on the web. Asking to join is a person's
act on the web page; it has no API call.
"""

from __future__ import annotations

from ..models import Game, JoinRequest
from ..services import lobby
from . import bp, inputs
from .auth import caller, gm_game
from .games import GAME_ID
from .serialize import iso, player_json

REQUEST_ID = "<int:request_id>"


def listing_json(game: Game) -> dict:
    return {"game_id": game.id, "open": game.open_to_join, "max_players": game.max_players,
            "players": len(game.active_players), "full": lobby.is_full(game)}


def request_json(request: JoinRequest) -> dict:
    return {"id": request.id, "game_id": request.game_id, "name": request.name,
            "email": request.email, "language": request.language, "message": request.message,
            "state": request.state, "created_at": iso(request.created_at),
            "decided_at": iso(request.decided_at), "player_id": request.player_id}


@bp.put(f"/games/{GAME_ID}/listing")
def put_listing(game_id: int):
    """List the game as open (or not) and set its player limit (null: none)."""
    game = gm_game(game_id)
    body = inputs.json_object({"open", "max_players"}, {"open"})
    is_open = inputs.boolean(body["open"], "open")
    limit = body.get("max_players")
    if limit is not None:
        limit = inputs.integer(limit, "max_players", 1, lobby.MAX_PLAYERS)
    lobby.set_listing(game, open_to_join=is_open, max_players=limit, actor=caller().actor)
    return listing_json(game)


@bp.get(f"/games/{GAME_ID}/join-requests")
def list_join_requests(game_id: int):
    """The listing and every request to join, waiting ones first."""
    game = gm_game(game_id)
    return {**listing_json(game),
            "requests": [request_json(r) for r in lobby.requests_for(game)]}


@bp.post(f"/games/{GAME_ID}/join-requests/{REQUEST_ID}/accept")
def accept_join_request(game_id: int, request_id: int):
    """Add the requester as a player (the normal invitation is mailed); 201 with the player."""
    game = gm_game(game_id)
    body = inputs.json_object({"name"})
    name = inputs.line(body["name"], "name", 80) if "name" in body else None
    player = lobby.accept(game, request_id, name=name, actor=caller().actor)
    return player_json(player, for_gm=True), 201


@bp.post(f"/games/{GAME_ID}/join-requests/{REQUEST_ID}/decline")
def decline_join_request(game_id: int, request_id: int):
    """Decline a request; the requester is told by mail."""
    game = gm_game(game_id)
    inputs.json_object(set())
    return request_json(lobby.decline(game, request_id, actor=caller().actor))
