"""A player's absences on the web: "I'm away" on the game's page, and cancelling one."""

from __future__ import annotations

from flask import abort, flash, redirect, request, url_for

from ...extensions import db
from ...i18n import translate
from ...i18n.dates import day_text
from ...services import absence
from ...services.errors import ServiceError
from ..session import current_language, login_required
from . import bp
from .common import player_game
from .pages import game_page

FIELDS = ("starts", "ends", "note")


@bp.post("/games/<int:game_id>/absences")
@login_required
def announce_absence(game_id: int):
    """Store an absence of the viewer's seat ("I'm away"), or show the form with the error."""
    game, player = player_game(game_id)
    lang = current_language()
    values = {k: request.form.get(k, "")[:400] for k in FIELDS}
    try:
        starts, ends = absence.day_of(values["starts"]), absence.day_of(values["ends"])
        noted = absence.announce(player, starts, ends, values["note"], channel="web",
                                 entered_by=player.email)
    except ServiceError as exc:
        db.session.rollback()
        return game_page(game, player, status=400, absence_error=exc.sentence(lang),
                         absence_values=values)
    said = translate(lang, "Noted: you are away from {starts} until {ends}.").format(
        starts=day_text(noted.starts, lang), ends=day_text(noted.ends, lang))
    if noted.start_moved:
        said += " " + translate(lang, "A first day in the past counts from today.")
    flash(said, "ok")
    return redirect(url_for("player.game", game_id=game.id) + "#absence")


@bp.post("/games/<int:game_id>/absences/<int:absence_id>/cancel")
@login_required
def cancel_absence(game_id: int, absence_id: int):
    """Withdraw one of the viewer's own absences (404 for anybody else's)."""
    game, player = player_game(game_id)
    lang = current_language()
    try:
        found = absence.find(player, absence_id)
    except ServiceError:
        abort(404)
    absence.cancel(found, player.email)
    flash(translate(lang, "Cancelled: your absence from {starts} until {ends}.").format(
        starts=day_text(found.starts, lang), ends=day_text(found.ends, lang)), "ok")
    return redirect(url_for("player.game", game_id=game.id) + "#absence")
