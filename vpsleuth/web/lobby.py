"""Open games for signed-in visitors: the list, one game's house rules, asking to join.

Only a viewer signed in by a link of their own (not an invitation's session)
sees these pages (services.lobby.require_own_sign_in); the GM's side is in
gm/lobby.py.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from ..extensions import db
from ..i18n import N_
from ..i18n.schedule_words import schedule_text
from ..models import GameMaster
from ..rules.schedule import Schedule
from ..services import lobby
from ..services.errors import ServiceError
from .errors import STATUS
from .session import current_language, current_viewer, login_required

bp = Blueprint("lobby", __name__)


def _gm_names(listings: list[lobby.Listing]) -> dict[int, str]:
    ids = {item.game.game_master_id for item in listings if item.game.game_master_id}
    return {gm.id: gm.name for gm in db.session.query(GameMaster).filter(GameMaster.id.in_(ids))}


def _page(template: str, listings: list[lobby.Listing], status: int = 200, **extra):
    lang = current_language()
    schedules = {item.game.id: schedule_text(Schedule.from_json(item.game.schedule), lang)
                 for item in listings}
    return render_template(template, listings=listings, schedules=schedules,
                           gm_names=_gm_names(listings), **extra), status


@bp.get("/games/open")
@login_required
def open_games():
    """Every open game with its house rules, and where the viewer stands with each."""
    return _page("web/lobby/open_games.html", lobby.open_games(current_viewer()))


@bp.get("/games/open/<int:game_id>")
@login_required
def open_game(game_id: int):
    """One open game: its house rules and the form to ask to join."""
    listing = lobby.open_game(current_viewer(), game_id)
    return _page("web/lobby/open_game.html", [listing], listing=listing,
                 form={"language": current_language()})


@bp.post("/games/open/<int:game_id>")
@login_required
def ask_to_join(game_id: int):
    """Ask to join: a name to play under, a language, a message to the GM."""
    viewer = current_viewer()
    form = {key: request.form.get(key, "") for key in ("name", "message", "language")}
    try:
        lobby.ask_to_join(viewer, game_id, form["name"], form["message"],
                          language=form["language"] or current_language())
    except ServiceError as exc:
        db.session.rollback()
        if exc.code == "not_found":
            raise
        listing = lobby.open_game(viewer, game_id)
        return _page("web/lobby/open_game.html", [listing], STATUS.get(exc.code, 400),
                     listing=listing, form=form, error=exc.text(current_language()))
    flash(N_("Your request is sent. The game master decides; you hear by mail either way."), "ok")
    return redirect(url_for("lobby.open_games") + f"#game-{game_id}")
