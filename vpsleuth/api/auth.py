"""Who is calling: ``Authorization: Bearer vps_...`` resolved to a game master or a player.

A GM token acts for the GM's account: the games the GM runs, and any game the
GM's address plays in. A player token acts for that one player in that one
game, and never with GM rights, even if the same address has a GM account.
What a caller may see and do is decided by services.access.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import g, request

from ..extensions import db
from ..i18n import N_
from ..models import ApiToken, Game, GameMaster, Player
from ..services import access
from ..services.accounts import token_for
from ..services.errors import NotFound
from . import bp, inputs
from .errors import Unauthorized

# Endpoints anyone may call without a token.
PUBLIC_ENDPOINTS = {"api.openapi_document", "api.no_such_route"}


@dataclass(frozen=True)
class Caller:
    """The owner of the token of the current request."""

    token: ApiToken
    viewer: access.Viewer
    name: str
    game_master: GameMaster | None = None
    player: Player | None = None

    @property
    def actor(self) -> str:
        """How the caller appears in the audit log and on turns entered for others."""
        return self.viewer.email

    def may_see(self, game: Game) -> bool:
        """Members may read a game; a player token is limited to its own game."""
        if self.player is not None:
            if game.id != self.player.game_id:
                return False
            if self.player.email.lower() == self.viewer.email:
                return True  # player_in would find this player: no need to load all of them
        return access.is_gm_of(self.viewer, game) or access.player_in(self.viewer, game) is not None


def caller() -> Caller:
    """The caller of the current request (set by authenticate)."""
    return g.api_caller


@bp.before_request
def authenticate() -> None:
    """Resolve the bearer token; 401 if it is missing, unknown or revoked."""
    if request.endpoint in PUBLIC_ENDPOINTS or request.method == "OPTIONS":
        return
    scheme, _, raw = request.headers.get("Authorization", "").strip().partition(" ")
    if scheme.lower() != "bearer" or not raw.strip():
        raise Unauthorized(N_("send an API token: 'Authorization: Bearer vps_...' (game "
                              "masters and players make tokens on their account page)"))
    token = token_for(raw.strip())
    if token is None:
        raise Unauthorized(N_("this API token is not valid: it is unknown or has been revoked"),
                           code="invalid_token")
    g.api_caller = _caller_for(token)


def _caller_for(token: ApiToken) -> Caller:
    if token.game_master_id is not None:
        gm = db.session.get(GameMaster, token.game_master_id)
        if gm is not None:
            return Caller(token, access.Viewer(gm.email.strip().lower(), gm.id), gm.name,
                          game_master=gm)
    elif token.player_id is not None:
        player = db.session.get(Player, token.player_id)
        if player is not None:
            return Caller(token, access.Viewer(player.email.strip().lower()), player.name,
                          player=player)
    raise Unauthorized(N_("this API token belongs to nobody any more"), code="invalid_token")


def visible_game(game_id: int) -> Game:
    """A game the caller may read; 404 alike for games that do not exist and foreign ones."""
    game = db.session.get(Game, game_id) if 0 < game_id <= inputs.MAX_ID else None
    if game is None or not caller().may_see(game):
        raise NotFound(N_("no game {id} among your games"), id=game_id)
    return game


def gm_game(game_id: int) -> Game:
    """A game the caller runs as its game master (403 for its players)."""
    game = visible_game(game_id)
    access.require_gm(caller().viewer, game)
    return game


def own_player(game: Game) -> Player:
    """The caller's own player in a game they may see (403 for a GM who does not play)."""
    who = caller()
    if who.player is not None:
        return who.player
    return access.require_player(who.viewer, game)


def player_of(game: Game, player_id: int) -> Player:
    """A player of ``game`` by id (404 if the id is not one of its players)."""
    player = next((p for p in game.players if p.id == player_id), None)
    if player is None:
        raise NotFound(N_("no player {id} in game '{game}'"), id=player_id, game=game.name)
    return player
