"""Absences by API: a player's own (list, announce, cancel); the GM's for their game.

Cancelling is ``POST .../cancel`` (the absence stays in the list, marked cancelled).
A player token reaches its own seat's absences only; a GM token the absences of
every player of a game it runs (``player_id`` names whom it enters one for).
The note is for the player and the GM: no other caller reads it.
"""

from __future__ import annotations

from datetime import date

from flask import url_for
from sqlalchemy import select

from ..extensions import db
from ..i18n import N_
from ..models import Absence, Game, Player
from ..services import absence, access
from ..services.errors import NotFound
from . import bp, inputs
from .auth import caller, own_player, visible_game
from .errors import BadInput
from .games import GAME_ID

_ABSENCE_ID = "<int:absence_id>"


def _runs(game: Game) -> bool:
    who = caller()
    return who.player is None and access.is_gm_of(who.viewer, game)


def _day(value, field: str) -> date:
    if not isinstance(value, str):
        raise BadInput(field, N_("must be a date such as 2026-12-20"))
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise BadInput(field, N_("must be a date such as 2026-12-20")) from None


def _seat(game: Game, player_id) -> Player:
    """Whose absence: the GM names a player of their game; a player is their own seat."""
    if _runs(game):
        if player_id is None:
            raise BadInput("player_id", N_("name the player the absence is for"))
        pid = inputs.integer(player_id, "player_id", 1, inputs.MAX_ID)
        found = next((p for p in game.players if p.id == pid), None)
        if found is None:
            raise NotFound(N_("no player {id} in game '{game}'"), id=pid, game=game.name)
        return found
    player = own_player(game)
    if player_id is not None and player_id != player.id:
        raise NotFound(N_("no player {id} in game '{game}'"), id=player_id, game=game.name)
    return player


@bp.get(f"/games/{GAME_ID}/absences")
def list_absences(game_id: int):
    """The caller's own absences; for the GM, every player's."""
    game = visible_game(game_id)
    ids = [p.id for p in game.players] if _runs(game) else [_seat(game, None).id]
    rows = db.session.scalars(select(Absence).where(Absence.player_id.in_(ids))
                              .order_by(Absence.starts, Absence.id)) if ids else []
    return {"game_id": game.id, "absences": [absence.as_json(a) for a in rows]}


@bp.post(f"/games/{GAME_ID}/absences")
def post_absence(game_id: int):
    """Announce an absence (both days included, in the player's time zone)."""
    game = visible_game(game_id)
    body = inputs.json_object({"starts", "ends", "note", "player_id"}, {"starts", "ends"})
    player = _seat(game, body.get("player_id"))
    note = inputs.line(body["note"], "note", absence.NOTE_CHARS) if body.get("note") else ""
    noted = absence.announce(player, _day(body["starts"], "starts"), _day(body["ends"], "ends"),
                             note, channel="gm" if _runs(game) else "api",
                             entered_by=caller().actor)
    location = url_for("api.list_absences", game_id=game.id)
    return ({**absence.as_json(noted), "start_moved": bool(noted.start_moved)}, 201,
            {"Location": location})


@bp.post(f"/games/{GAME_ID}/absences/{_ABSENCE_ID}/cancel")
def cancel_absence(game_id: int, absence_id: int):
    """Cancel an absence: kept, no longer counting (the GM's cancellations are audited).

    A POST with an empty body (or none), as the board's delete: a cancelled absence
    stays readable in the list, so it is not a DELETE of the resource.
    """
    game = visible_game(game_id)
    found = db.session.get(Absence, absence_id) if 0 < absence_id <= inputs.MAX_ID else None
    gm = _runs(game)
    mine = None if gm else _seat(game, None)
    if (found is None or found.player.game_id != game.id
            or (mine is not None and found.player_id != mine.id)):
        raise NotFound(N_("no absence {id} of yours"), id=absence_id)
    inputs.json_object(set())
    absence.cancel(found, caller().actor, by_gm=gm)
    return absence.as_json(found)
