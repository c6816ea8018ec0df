"""Who may see and do what: checked here, so every entrance gets the same answer."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, or_, select

from ..extensions import db
from ..i18n import N_
from ..models import Game, GameMaster, Player
from .errors import ServiceError


class Forbidden(ServiceError):
    code = "forbidden"


NOT_PLAYING = N_("you do not play in '{game}'")


@dataclass(frozen=True)
class Viewer:
    """A signed-in person: an email address, and a GM account if it has one.

    ``player_id`` set: the viewer came in by an invitation link and is that one
    player in that one game, nothing more (no other games, no GM role).
    """

    email: str
    gm_id: int | None = None
    player_id: int | None = None

    @property
    def is_gm(self) -> bool:
        return self.gm_id is not None


def viewer_for(email: str, player_id: int | None = None) -> Viewer:
    """The viewer signed in as ``email``; limited to one player if ``player_id`` is given."""
    email = email.strip().lower()
    if player_id is not None:
        return Viewer(email, None, player_id)
    gm = db.session.scalar(select(GameMaster).where(func.lower(GameMaster.email) == email))
    return Viewer(email, gm.id if gm else None)


def games_of(viewer: Viewer) -> list[Game]:
    """The games a viewer plays in or runs, newest first."""
    playing = select(Player.game_id).where(func.lower(Player.email) == viewer.email)
    if viewer.player_id is not None:
        playing = playing.where(Player.id == viewer.player_id)
    clauses = [Game.id.in_(playing)]
    if viewer.is_gm:
        clauses.append(Game.game_master_id == viewer.gm_id)
    return list(db.session.scalars(select(Game).where(or_(*clauses)).order_by(Game.id.desc())))


def player_in(viewer: Viewer, game: Game) -> Player | None:
    return next((p for p in game.players if p.email.lower() == viewer.email
                 and viewer.player_id in (None, p.id)), None)


def is_gm_of(viewer: Viewer, game: Game) -> bool:
    return viewer.is_gm and game.game_master_id == viewer.gm_id


def require_player(viewer: Viewer, game: Game) -> Player:
    player = player_in(viewer, game)
    if player is None:
        raise Forbidden(NOT_PLAYING, game=game.name)
    return player


GM_ONLY = N_("only the game master of '{game}' may do this")


def require_gm(viewer: Viewer, game: Game) -> None:
    if not is_gm_of(viewer, game):
        raise Forbidden(GM_ONLY, game=game.name)


def require_member(viewer: Viewer, game: Game) -> None:
    """Players and the GM of a game may read its public pages."""
    if not (is_gm_of(viewer, game) or player_in(viewer, game)):
        raise Forbidden(NOT_PLAYING, game=game.name)
