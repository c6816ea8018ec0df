"""Practice against computer players: a form, and the game it starts.

Only a viewer signed in by a link of their own may start one (an invitation's
session is good for its one game only); the practice game is theirs alone,
with no game master (services/practice.py).
"""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, redirect, render_template, request, url_for

from ..extensions import db
from ..i18n import N_
from ..services import practice
from ..services.access import Forbidden
from ..services.bots import LEVELS
from ..services.errors import ServiceError
from .costs import spent
from .session import current_language, current_viewer, login_required

bp = Blueprint("practice", __name__)


def _own_viewer():
    viewer = current_viewer()
    if viewer.player_id is not None:
        raise Forbidden(N_("sign in with a link of your own to practise"))
    return viewer


def _page(form: dict, status: int = 200, error: str | None = None):
    return render_template("web/practice.html", form=form, levels=LEVELS,
                           most=practice.MAX_BOTS, error=error), status


@bp.get("/practice")
@login_required
def new_practice():
    """The form: how many computer players, of which level."""
    _own_viewer()
    return _page({"bots": "3", "level": "medium", "name": ""})


@bp.post("/practice")
@login_required
@spent("practice_new", "PRACTICE_PER_HOUR", per=timedelta(hours=1))
def start_practice():
    """Start a practice game and go straight to its first turn."""
    viewer = _own_viewer()
    form = {key: request.form.get(key, "") for key in ("bots", "level", "name")}
    lang = current_language()
    try:
        # ASCII digits only: "²".isdigit() holds, but int("²") raises.
        digits = form["bots"].isascii() and form["bots"].isdigit()
        bots = int(form["bots"]) if digits else 0
        game = practice.create_practice(viewer.email, name=form["name"].strip() or "You",
                                        bots=bots, level=form["level"], language=lang)
    except ServiceError as exc:
        db.session.rollback()
        return _page(form, 400, exc.text(lang))
    return redirect(url_for("player.turn", game_id=game.id))
