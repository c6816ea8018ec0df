"""A player's private notebook: marks by gem and place, and free notes.

Only a player token reaches it, and only its own player's: a game master's
token gets 404 even for a game it runs, as does everyone else's.
"""

from __future__ import annotations

from typing import Any

from flask import current_app

from ..i18n import N_
from ..models import Game, Player
from ..rules import GEM_BY_CODE, LOCATIONS
from ..services import costly
from ..services import notebook as notebooks
from ..services.errors import NotFound
from . import bp, inputs
from .auth import caller, visible_game
from .errors import BadInput
from .games import GAME_ID
from .serialize import iso


def notebook_player(game_id: int) -> tuple[Game, Player]:
    """The game and the caller's player in it; 404 for any token but that player's."""
    game = visible_game(game_id)
    player = caller().player
    if player is None or player.game_id != game.id:
        raise NotFound(N_("no notebook of yours in game {id}"), id=game_id)
    return game, player


def notebook_json(game: Game, player: Player, book: notebooks.Notebook) -> dict:
    return {"game_id": game.id, "player_id": player.id, "marks": book.marks,
            "notes": book.notes, "updated_at": iso(book.updated_at)}


@bp.get(f"/games/{GAME_ID}/notebook")
def get_notebook(game_id: int):
    """The caller's notebook for this game."""
    game, player = notebook_player(game_id)
    return notebook_json(game, player, notebooks.read(player))


@bp.put(f"/games/{GAME_ID}/notebook")
def put_notebook(game_id: int):
    """Replace the marks, the notes, or both; what is left out stays."""
    game, player = notebook_player(game_id)
    body = inputs.json_object({"marks", "notes"})
    if not body:
        raise BadInput("", N_("send a JSON object with marks, notes or both"))
    marks = _marks(body["marks"]) if "marks" in body else None
    notes = body.get("notes")
    if "notes" in body and not isinstance(notes, str):
        raise BadInput("notes", inputs.MUST_BE_STRING)
    if notes is not None and len(notes) > notebooks.MAX_NOTES:
        raise BadInput("notes", inputs.AT_MOST, most=notebooks.MAX_NOTES)
    with costly.spending("notebook", caller().viewer.email,
                         most=current_app.config["NOTEBOOK_PER_MINUTE"]):
        return notebook_json(game, player, notebooks.save(player, marks=marks, notes=notes))


def _marks(value: Any) -> dict:
    """``{"RD1": {"A": "yes", "X": "no"}, ...}``, each key and mark checked."""
    if not isinstance(value, dict):
        raise BadInput("marks", N_("must be an object: gem code -> {place: yes, no or maybe}"))
    for gem, row in value.items():
        if gem not in GEM_BY_CODE:
            raise BadInput("marks", N_("{gem} is not a gem code such as RD1 or YO3"),
                           gem=repr(gem))
        if not isinstance(row, dict):
            raise BadInput(f"marks.{gem}", N_("must be an object: place -> yes, no or maybe"))
        for place, mark in row.items():
            if place not in LOCATIONS:
                raise BadInput(f"marks.{gem}", N_("{place} is not a place: A-G or X"),
                               place=repr(place))
            if mark not in notebooks.MARKS:
                raise BadInput(f"marks.{gem}.{place}", N_("must be yes, no or maybe"))
    return value
