"""The game's place in the community's record: the public archive and the ratings."""

from __future__ import annotations

from flask import redirect, request, url_for

from ...i18n import N_
from ...services import archive, ratings
from ...services.errors import ServiceError
from . import bp
from .forms import InviteForm
from .game_page import game_page
from .helpers import actor, gm_game, refused, say


@bp.post("/games/<int:game_id>/public")
def public(game_id: int):
    """Show the game in the public archive once it ends, or keep it private (audited)."""
    game = gm_game(game_id)
    try:
        archive.set_public(game, request.form.get("public") == "on", actor=actor())
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    say(N_("Saved: the game is shown in the public archive once it ends.") if game.public
        else N_("Saved: the game stays private."))
    return redirect(url_for("gm.game", game_id=game.id) + "#public")


@bp.post("/games/<int:game_id>/rated")
def rated(game_id: int):
    """Let the game count for the ratings, before it starts (audited)."""
    game = gm_game(game_id)
    try:
        ratings.set_rated(game, request.form.get("rated") == "on", actor=actor())
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    say(N_("Saved: the game counts for the ratings.") if game.rated
        else N_("Saved: the game does not count for the ratings."))
    return redirect(url_for("gm.game", game_id=game.id) + "#rated")
