"""Open games: a GM lists a game, signed-in visitors ask to join, the GM decides.

Who may do what is checked here, for every entrance alike: any viewer signed
in by a link of their own sees the open games and may ask to join one; only
the game's GM sees its requests and decides them. Requests are limited per
address and per game in a sliding window counted in the database (limits.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..i18n import N_
from ..models import Game, JoinRequest, Player, utcnow
from . import access, events, games, limits
from .auth import RateLimited
from .errors import Invalid, NotFound, WrongState

ASKED_ALREADY = N_("you have asked to join this game already")

LISTED_STATES = ("setup", "running", "paused")  # an ended game is never listed
MAX_MESSAGE = 1000
MAX_PLAYERS = 1000
DAY = timedelta(days=1)
# Defaults where a config lacks them (config/default.py has both).
LIMITS = {"JOIN_REQUESTS_PER_ADDRESS_PER_DAY": 10, "JOIN_REQUESTS_PER_GAME_PER_DAY": 30}


def _limit(key: str) -> int:
    return int(current_app.config.get(key, LIMITS[key]))


@dataclass(frozen=True)
class Listing:
    """An open game as a visitor sees it."""

    game: Game
    players: int  # active players now
    full: bool
    mine: JoinRequest | None  # the viewer's own request, if any
    playing: bool  # the viewer plays in it already
    runs_it: bool  # the viewer is its GM


def is_full(game: Game) -> bool:
    return game.max_players is not None and len(game.active_players) >= game.max_players


def require_own_sign_in(viewer: access.Viewer | None) -> access.Viewer:
    """Open games are for a viewer signed in by a link they asked for themselves.

    A session from an invitation is that one player in that one game, nothing
    more: it neither sees other games nor asks to join them.
    """
    if viewer is None or viewer.player_id is not None:
        raise access.Forbidden(N_("open games need a sign-in link you ask for yourself"))
    return viewer


def open_games(viewer: access.Viewer) -> list[Listing]:
    """The games listed as open, newest first, with what the viewer has to do with each."""
    viewer = require_own_sign_in(viewer)
    rows = db.session.scalars(select(Game).where(
        Game.open_to_join.is_(True), Game.state.in_(LISTED_STATES)).order_by(Game.id.desc()))
    mine = {r.game_id: r for r in db.session.scalars(
        select(JoinRequest).where(JoinRequest.email == viewer.email))}
    return [Listing(game, len(game.active_players), is_full(game), mine.get(game.id),
                    access.player_in(viewer, game) is not None, access.is_gm_of(viewer, game))
            for game in rows]


def open_game(viewer: access.Viewer, game_id: int) -> Listing:
    """One open game for the viewer; NotFound for a game that is not listed."""
    for listing in open_games(viewer):
        if listing.game.id == game_id:
            return listing
    raise NotFound(N_("no such open game"))


def set_listing(game: Game, *, open_to_join: bool, max_players: int | None,
                actor: str = "gm") -> None:
    """List or unlist the game and set its player limit (None: no limit); audited."""
    if max_players is not None and not 1 <= max_players <= MAX_PLAYERS:
        raise Invalid(N_("the player limit is 1 to {most}, or empty for none"),
                      most=MAX_PLAYERS)
    if open_to_join and game.state not in LISTED_STATES:
        raise WrongState(N_("game '{game}' has ended; it cannot be open"), game=game.name)
    game.open_to_join, game.max_players = open_to_join, max_players
    games.audit(game, actor, "set_listing", open=open_to_join, max_players=max_players)
    db.session.commit()


def ask_to_join(viewer: access.Viewer, game_id: int, name: str, message: str = "", *,
                language: str = "en", now: datetime | None = None) -> JoinRequest:
    """The viewer asks to play in an open game under ``name``; one request per address."""
    now = now or utcnow()
    listing = open_game(viewer, game_id)
    game, email = listing.game, viewer.email
    if listing.runs_it:
        raise Invalid(N_("you run this game"))
    if listing.playing:
        raise Invalid(N_("you play in this game already"))
    if listing.mine is not None:
        raise Invalid(ASKED_ALREADY)
    if listing.full:
        raise WrongState(N_("this game is full"))
    name, message = name.strip(), message.strip()
    if not name or len(name) > 80:
        raise Invalid(N_("give a name of 1 to 80 characters to play under"))
    games.check_one_line(name, N_("a player's name"))
    if any(p.name.lower() == name.lower() for p in game.players):
        raise Invalid(N_("{name} plays in this game already; choose another name"),
                      name=repr(name))
    if len(message) > MAX_MESSAGE:
        raise Invalid(N_("the message is at most {most} characters"), most=MAX_MESSAGE)
    if language not in games.LANGUAGES:
        raise Invalid(games.LANGUAGE_ONE_OF, languages=", ".join(games.LANGUAGES))
    _count_request(email, game, now)
    request = JoinRequest(game_id=game.id, email=email, name=name, message=message,
                          language=language, created_at=now)
    db.session.add(request)
    try:
        db.session.flush()  # the unique (game, address) pair: a second tab loses here
    except IntegrityError:
        db.session.rollback()
        raise Invalid(ASKED_ALREADY) from None
    events.join_requested.send(game, request=request)
    db.session.commit()
    return request


def _count_request(email: str, game: Game, now: datetime) -> None:
    """Refuse over either limit; count this one (committed with the request)."""
    if limits.count("join_address", email, DAY, now) >= _limit(
            "JOIN_REQUESTS_PER_ADDRESS_PER_DAY"):
        raise RateLimited(N_("you have asked to join too many games today; please try "
                             "tomorrow"))
    if limits.count("join_game", str(game.id), DAY, now) >= _limit(
            "JOIN_REQUESTS_PER_GAME_PER_DAY"):
        raise RateLimited(N_("this game has had many requests today; please try tomorrow"))
    limits.record("join_address", email, now)
    limits.record("join_game", str(game.id), now)


def requests_for(game: Game) -> list[JoinRequest]:
    """The game's requests, pending first, then the decided ones, newest first."""
    rows = db.session.scalars(select(JoinRequest).where(JoinRequest.game_id == game.id)
                              .order_by(JoinRequest.id.desc())).all()
    return sorted(rows, key=lambda r: r.state != "pending")


def pending_count(game: Game) -> int:
    return db.session.scalar(select(func.count()).select_from(JoinRequest).where(
        JoinRequest.game_id == game.id, JoinRequest.state == "pending"))


def _pending(game: Game, request_id: int) -> JoinRequest:
    request = db.session.get(JoinRequest, request_id)
    if request is None or request.game_id != game.id:
        raise NotFound(N_("no such request to join '{game}'"), game=game.name)
    if request.state != "pending":
        raise WrongState(N_("this request was {state} already"), state=request.state)
    return request


def accept(game: Game, request_id: int, *, name: str | None = None, actor: str = "gm",
           now: datetime | None = None) -> Player:
    """Add the requester as a player (the normal invitation, its link for that player only).

    ``name``: another name than the one asked for, if that one is taken by now.
    """
    now = now or utcnow()
    request = _pending(game, request_id)
    player = games.add_player(game, name or request.name, request.email,
                              language=request.language, actor=actor, now=now)
    request.state, request.decided_at, request.player_id = "accepted", now, player.id
    games.audit(game, actor, "accept_join", player=player.name, email=request.email)
    db.session.commit()
    return player


def decline(game: Game, request_id: int, *, actor: str = "gm",
            now: datetime | None = None) -> JoinRequest:
    """Decline a request; the requester is told by mail."""
    now = now or utcnow()
    request = _pending(game, request_id)
    request.state, request.decided_at = "declined", now
    games.audit(game, actor, "decline_join", name=request.name, email=request.email)
    events.join_declined.send(game, request=request)
    db.session.commit()
    return request
