"""Adding a computer player from the GM's game page (services/bots.py does the work)."""

from __future__ import annotations

from flask import redirect, request, url_for

from ...i18n import N_
from ...services import bots
from ...services.errors import ServiceError
from . import bp
from .forms import InviteForm
from .game_page import game_page
from .helpers import actor, gm_game, refused, say


@bp.post("/games/<int:game_id>/bots")
def add_bot(game_id: int):
    """Add a bot of a level, before or during the game (GM of the game only)."""
    game = gm_game(game_id)
    name, level = request.form.get("name", ""), request.form.get("level", "")
    try:
        player = bots.add_bot(game, name, level, actor=actor())
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    say(N_("{name} joins as a computer player."), name=player.name)
    return redirect(url_for("gm.game", game_id=game.id) + "#players")
