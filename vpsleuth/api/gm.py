"""What only a game's own game master may do: players, the clock, resolution, secrets."""

from __future__ import annotations

from collections.abc import Callable

from flask import request, url_for
from sqlalchemy import select

from ..extensions import db
from ..i18n import N_
from ..models import AuditEntry, Game, Round
from ..services import games, gm, resolution, seats, standing_turns
from ..services.errors import Invalid, NotFound, WrongState
from . import bp, inputs
from .auth import caller, gm_game, player_of
from .games import GAME_ID, LANGUAGES, my_roles
from .serialize import audit_json, game_detail, player_json, round_brief, status_json
from .turns import submission_json

PLAYER_ID = "<int:player_id>"


def _game_json(game) -> dict:
    return game_detail(game, my_roles(caller(), game))


def _newcomer() -> tuple[str, str, str | None]:
    """A new player's name, address and language (None: the game's) from the JSON body."""
    body = inputs.json_object({"name", "email", "language"}, {"name", "email"})
    language = None
    if "language" in body:
        language = inputs.choice(body["language"], "language", LANGUAGES)
    return inputs.line(body["name"], "name", 80), inputs.email(body["email"]), language


@bp.post(f"/games/{GAME_ID}/players")
def invite_player(game_id: int):
    """Add a player; an invitation with a sign-in link goes to the outbox."""
    game = gm_game(game_id)
    name, email, language = _newcomer()
    player = games.add_player(game, name, email, language=language, actor=caller().actor)
    location = url_for("api.get_game", game_id=game.id)
    return player_json(player, for_gm=True), 201, {"Location": location}


@bp.post(f"/games/{GAME_ID}/players/{PLAYER_ID}/withdraw")
def withdraw_player(game_id: int, player_id: int):
    """Withdraw a player: no longer active, scores nothing from now on."""
    game = gm_game(game_id)
    player = player_of(game, player_id)
    inputs.json_object(set())
    games.withdraw_player(player, actor=caller().actor)
    return player_json(player, for_gm=True)


@bp.patch(f"/games/{GAME_ID}/players/{PLAYER_ID}")
def change_player(game_id: int, player_id: int):
    """Change a player's email address (the only field that can change)."""
    game = gm_game(game_id)
    player = player_of(game, player_id)
    body = inputs.json_object({"email"}, {"email"})
    gm.change_email(player, inputs.email(body["email"]), actor=caller().actor)
    return player_json(player, for_gm=True)


@bp.post(f"/games/{GAME_ID}/players/{PLAYER_ID}/replace")
def replace_player(game_id: int, player_id: int):
    """Hand the seat to a substitute: points and history stay, the old address loses it."""
    game = gm_game(game_id)
    player = player_of(game, player_id)
    name, email, language = _newcomer()
    change = seats.replace_player(game, player, name, email, actor=caller().actor,
                                  language=language)
    return {"player": player_json(player, for_gm=True), "from_round": change.from_round,
            "old_name": change.old_name, "old_email": change.old_email,
            "at": change.at.isoformat()}


@bp.post(f"/games/{GAME_ID}/players/{PLAYER_ID}/turn")
def enter_turn(game_id: int, player_id: int):
    """A turn the GM received another way, entered for the player (audited; they are told)."""
    game = gm_game(game_id)
    player = player_of(game, player_id)
    text, round_number = inputs.turn_body()
    sub = gm.enter_turn(player, text, actor=caller().actor, round_number=round_number)
    return submission_json(game, player, sub)


@bp.post(f"/games/{GAME_ID}/start")
def start_game(game_id: int):
    """Deal, publish the commitment, open round 1."""
    game = gm_game(game_id)
    inputs.json_object(set())
    games.start_game(game, actor=caller().actor)
    return _game_json(game)


@bp.get(f"/games/{GAME_ID}/status")
def round_status(game_id: int):
    """Who has a turn in for the open round: counts only, never the tips."""
    game = gm_game(game_id)
    return status_json(game, standing_turns.round_status(game))


@bp.post(f"/games/{GAME_ID}/extend")
def extend_deadline(game_id: int):
    """Move the open round's deadline later; the players are told."""
    return _new_deadline(gm_game(game_id), gm.extend_deadline)


@bp.post(f"/games/{GAME_ID}/deadline")
def move_deadline(game_id: int):
    """Move the open round's deadline later or earlier, never into the past; players are told."""
    return _new_deadline(gm_game(game_id), gm.move_deadline)


def _new_deadline(game: Game, change: Callable[..., Round]) -> dict:
    """The body's ``deadline`` given to ``change`` (a gm service) for the open round."""
    body = inputs.json_object({"deadline"}, {"deadline"})
    deadline = inputs.aware_time(body["deadline"], "deadline")
    round_ = change(game, deadline, actor=caller().actor)
    return {"game_id": game.id, "round": round_brief(round_)}


@bp.post(f"/games/{GAME_ID}/pause")
def pause_game(game_id: int):
    """Stop the clock: no turns and no resolution until resumed."""
    game = gm_game(game_id)
    inputs.json_object(set())
    gm.pause_game(game, actor=caller().actor)
    return _game_json(game)


@bp.post(f"/games/{GAME_ID}/resume")
def resume_game(game_id: int):
    """Restart the clock; the deadline moves on by the length of the pause."""
    game = gm_game(game_id)
    inputs.json_object(set())
    gm.resume_game(game, actor=caller().actor)
    return _game_json(game)


@bp.post(f"/games/{GAME_ID}/resolve")
def resolve_round(game_id: int):
    """Resolve round ``round`` now; asking again for a resolved round changes nothing."""
    game = gm_game(game_id)
    body = inputs.json_object({"round"}, {"round"})
    number = inputs.integer(body["round"], "round", 1, inputs.MAX_ID)
    if game.round(number) is None:
        if game.state == "setup":
            raise WrongState(N_("'{game}' has not started yet"), game=game.name)
        raise NotFound(N_("round {round} of '{game}' has not opened"), round=number,
                       game=game.name)
    done = resolution.resolve_round(game, actor=caller().actor, number=number)
    return {"round": number, "resolved_now": done is not None,
            "game": {"id": game.id, "state": game.state,
                     "open_round": round_brief(game.open_round)},
            "report": url_for("api.round_report", game_id=game.id, number=number)}


@bp.get(f"/games/{GAME_ID}/audit")
def audit_log(game_id: int):
    """Every GM (and system) action on the game, oldest first."""
    game = gm_game(game_id)
    entries = db.session.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id)
                                 .order_by(AuditEntry.id))
    return {"game_id": game.id, "entries": [audit_json(e) for e in entries]}


@bp.get(f"/games/{GAME_ID}/distribution")
def distribution(game_id: int):
    """The secret deal, for the GM only, after an explicit confirm=yes; every look is audited."""
    game = gm_game(game_id)
    if request.args.get("confirm") != "yes":
        raise Invalid(N_("the distribution is the game's secret: add ?confirm=yes to see it "
                         "(every look is recorded in the audit log)"))
    dist, salt = gm.view_distribution(game, actor=caller().actor)
    return {"game_id": game.id, "distribution": dist, "salt": salt,
            "commitment": game.commitment}
