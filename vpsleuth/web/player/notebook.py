"""The notebook on the information sheet: saved as the player types, or by a plain form.

The page's script posts the whole notebook (``grid`` and ``notes``) a moment
after each change and asks for JSON; without the script each cell is a submit
button (``cycle``) and the notes go with it or with "Save notes". Either way
the CSRF token comes along and only the player's own session gets in.
"""

from __future__ import annotations

from flask import abort, jsonify, redirect, request, url_for

from ...services import notebook as notebooks
from ...services.errors import Invalid, NotFound
from ..costs import spent
from ..session import current_language, current_viewer, login_required
from . import bp
from .common import member_game


def notebook_owner(game_id: int):
    """The game and the viewer's own player; 404 for anyone else (its GM included)."""
    game, _ = member_game(game_id)
    try:
        return game, notebooks.owner(current_viewer(), game)
    except NotFound:
        abort(404)


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


@bp.post("/games/<int:game_id>/notebook")
@login_required
@spent("notebook", "NOTEBOOK_PER_MINUTE")
def save_notebook(game_id: int):
    """Store the notebook: JSON ``{"saved_at"}`` for the script, else back to the sheet."""
    game, player = notebook_owner(game_id)
    form = request.form
    grid, notes, cycle = form.get("grid"), form.get("notes"), form.get("cycle")
    if grid is None and notes is None and cycle is None:
        abort(400)
    gem, _, location = (cycle or "").partition(".")
    try:
        saved = notebooks.save(player, grid=grid, notes=notes,
                               cycle=(gem, location) if cycle is not None else None)
    except Invalid as exc:
        if _wants_json():
            return jsonify({"error": exc.text(current_language())}), 400
        raise
    if _wants_json():
        return jsonify({"saved_at": saved.updated_at.strftime("%Y-%m-%dT%H:%M:%SZ")})
    anchor = f"#cell-{gem}-{location}" if cycle is not None else "#notebook"
    return redirect(url_for("player.sheet", game_id=game.id) + anchor, code=303)
