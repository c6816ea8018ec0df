"""The game master's console: /gm pages for GM accounts, each only for its own games.

Every page and action needs a signed-in GM account; a player (or any other
signed-in address) gets 403, and 404 on a game's pages. Per-game pages also
check that the game belongs to this GM: another GM's game is not found. Every action calls a
service, and the services write the audit log.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, url_for

from ...i18n import N_
from ...services.access import Forbidden
from ..session import current_viewer

bp = Blueprint("gm", __name__, url_prefix="/gm")


@bp.before_request
def only_game_masters():
    """Signed-out visitors go to the sign-in page; signed-in non-GMs are refused."""
    viewer = current_viewer()
    if viewer is None:
        return redirect(url_for("auth.signin", next=request.full_path))
    if not viewer.is_gm:
        if request.view_args and "game_id" in request.view_args:
            abort(404)  # a game's page: not named to someone who does not run it
        raise Forbidden(N_("only game masters may use these pages"))
    return None


from . import (  # noqa: E402,F401  (routes)
    absences,
    board,
    bots,
    lobby,
    record,
    records,
    routes,
    seats,
    webhook,
)
