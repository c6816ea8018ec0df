"""A person's own data: their names in the record, their data as a file, their leaving.

The settings page links here. Downloading covers what the session may see (a
session opened by an invitation link: that one game); deleting the account
needs a session of one's own (a link asked for at the sign-in page), so a GM
who forwarded an invitation can neither read a player's other games nor
delete them. Everything is decided in the services (personal_data, leaving,
names); these views only ask and show.
"""

from __future__ import annotations

import json

from flask import Response, flash, redirect, render_template, request, url_for

from ...i18n import N_, translate
from ...services import access, leaving, names, personal_data
from ...services.errors import Invalid, ServiceError
from ..inputs import whole_number
from ..session import current_language, current_viewer, login_required, sign_out
from . import bp
from .settings import settings_page


@bp.get("/settings/export")
@login_required
def export():
    """Everything stored about the signed-in person (this seat only for an invitation's
    session), as a JSON file to download."""
    viewer = current_viewer()
    data = personal_data.export(viewer)
    body = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": 'attachment; filename="vpsleuth-my-data.json"',
        "Cache-Control": "no-store"})


@bp.post("/settings/profile")
@login_required
def save_profile():
    """The display name across games and whether to appear on the leaderboard."""
    viewer, lang = current_viewer(), current_language()
    if viewer.player_id is not None:
        raise access.Forbidden(N_("sign in with a link sent to your address to change what "
                                  "goes for all your games"))
    try:
        names.set_profile(viewer.email, display_name=request.form.get("display_name", ""),
                          hide_from_leaderboard="hide" in request.form)
    except Invalid as exc:
        return settings_page(status=400, errors={"profile": exc.text(lang)})
    flash(translate(lang, "Saved: your name in the archive and on the leaderboard."), "ok")
    return redirect(url_for("player.settings") + "#profile")


def _delete_page(status: int = 200, error: str | None = None):
    viewer = current_viewer()
    seats = personal_data.seats_of(viewer)
    running = [p for p in seats if p.game.state in ("running", "paused") and p.active]
    led = [g for g in access.games_of(viewer) if viewer.is_gm and g.game_master_id == viewer.gm_id
           and g.state != "finished"]
    page = render_template("web/player/delete_account.html", running=running, seats=seats,
                           led=led, successors=leaving.successors(viewer.email)
                           if led else [], error=error, scoped=viewer.player_id is not None)
    return page, status, {"Cache-Control": "no-store"}


@bp.get("/settings/delete")
@login_required
def delete_account_page():
    """What deleting the account does, game by game, and the button that does it."""
    return _delete_page()


@bp.post("/settings/delete")
@login_required
def delete_account():
    """Delete everything about the signed-in address; running games withdraw it first."""
    lang = current_language()
    if request.form.get("confirm") != "yes":
        return _delete_page(400, translate(lang, "Tick the box to confirm that you want "
                                                 "your account deleted."))
    successor = whole_number(request.form, "successor", None)
    try:
        leaving.delete_account(current_viewer(), successor_id=successor)
    except ServiceError as exc:
        status = {"forbidden": 403, "not_found": 404}.get(exc.code, 400)
        return _delete_page(status, exc.text(lang))
    sign_out()
    flash(translate(lang, "Your account is deleted. Your seats in finished games keep their "
                          "points as “former player”, with nothing that names you."), "ok")
    return redirect(url_for("auth.home"))
