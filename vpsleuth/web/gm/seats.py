"""Handing a player's seat to a substitute from the GM's game page (services/seats.py).

Two steps, as for every action that cannot be undone: the form on the game page
asks, a page says what will happen (from which round, what the old address
loses), and only its confirmation hands the seat on.
"""

from __future__ import annotations

from flask import redirect, render_template, request, url_for

from ...i18n import N_
from ...services import seats
from ...services.errors import ServiceError
from . import bp
from .forms import InviteForm
from .game_page import game_page
from .helpers import actor, game_player, gm_game, refused, say


@bp.post("/games/<int:game_id>/players/<int:player_id>/replace")
def replace_player(game_id: int, player_id: int):
    """Ask to confirm, then hand the seat to the newcomer named in the form."""
    game = gm_game(game_id)
    player = game_player(game, player_id)
    name, email = request.form.get("name", ""), request.form.get("email", "")
    try:
        if request.form.get("confirm") != "yes":
            from_round = seats.preview(game, player, name, email)
            return render_template("web/gm/replace.html", game=game, player=player,
                                   name=name.strip(), email=email.strip(),
                                   from_round=from_round)
        old = player.name
        change = seats.replace_player(game, player, name, email, actor=actor())
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    say(N_("{name} now holds {old}'s seat, from round {round}; the invitation is on its way."),
        name=player.name, old=old, round=change.from_round)
    return redirect(url_for("gm.game", game_id=game.id) + "#players")
