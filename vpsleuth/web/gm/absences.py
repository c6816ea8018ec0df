"""The GM's absences page: every absence of the game's players, with notes; enter or cancel one.

The note is for the GM: shown here, never on a page other players read. The
GM's entries and cancellations are audited (services/absence.py).
"""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from sqlalchemy import select

from ...extensions import db
from ...i18n import N_
from ...i18n.dates import day_text
from ...models import Absence, Game, Player
from ...services import absence
from ...services.errors import Invalid, ServiceError
from ..session import current_language
from . import bp
from .helpers import actor, game_player, gm_game, refused, say


def _page(game: Game, status: int = 200, values: dict | None = None):
    lang = current_language()
    ids = [p.id for p in game.players]
    rows = list(db.session.scalars(select(Absence).where(Absence.player_id.in_(ids))
                                   .order_by(Absence.starts.desc(), Absence.id.desc()))) \
        if ids else []
    names = {p.id: p.name for p in game.players}
    return render_template(
        "web/gm/absences.html", game=game, rows=rows, names=names,
        day=lambda d: day_text(d, lang), away=absence.away_in(game),
        players=[p for p in game.active_players if not p.is_bot],
        values=values or {}), status


@bp.get("/games/<int:game_id>/absences")
def absences(game_id: int):
    """Every absence of the game, its note, who entered it; the form to enter one."""
    return _page(gm_game(game_id))


@bp.post("/games/<int:game_id>/absences")
def enter_absence(game_id: int):
    """Enter an absence for a player (told on paper or by phone); audited."""
    game = gm_game(game_id)
    values = {k: request.form.get(k, "")[:400] for k in ("player", "starts", "ends", "note")}
    try:
        starts, ends = absence.day_of(values["starts"]), absence.day_of(values["ends"])
        player: Player = game_player(game, values["player"])
        noted = absence.announce(player, starts, ends, values["note"], channel="gm",
                                 entered_by=actor())
    except ServiceError as exc:
        return _page(game, refused(exc), values)
    lang = current_language()
    say(N_("Noted: {name} is away from {starts} until {ends}."), name=player.name,
        starts=day_text(noted.starts, lang), ends=day_text(noted.ends, lang))
    if noted.start_moved:
        say(N_("A first day in the past counts from today."))
    return redirect(url_for("gm.absences", game_id=game.id))


@bp.post("/games/<int:game_id>/absences/<int:absence_id>/cancel")
def cancel_absence(game_id: int, absence_id: int):
    """Cancel a player's absence (kept, no longer counting); audited."""
    game = gm_game(game_id)
    found = db.session.get(Absence, absence_id)
    if found is None or found.player.game_id != game.id:
        return _page(game, refused(Invalid(N_("no such absence in '{game}'"),
                                           game=game.name)))
    absence.cancel(found, actor(), by_gm=True)
    say(N_("Cancelled: the absence of {name}."), name=found.player.name)
    return redirect(url_for("gm.absences", game_id=game.id))



