"""Push notices on a person's devices: switch them on for this browser, remove a device.

The page's script (vpsleuth/static/push-settings.js) asks the browser for permission
and a PushSubscription, puts its JSON in the form and sends it as a plain form post
(with the CSRF token, as every form of the site); the answer is the settings page
again, with what was kept or why it was refused.
"""

from __future__ import annotations

import json

from flask import flash, redirect, request, url_for

from ...extensions import db
from ...i18n import N_, translate
from ...services import access, push
from ...services.errors import Invalid
from ..session import current_language, current_viewer, login_required
from . import bp
from .settings import settings_page

OWN_SESSION = N_("sign in with a link sent to your address to change what goes for all "
                 "your games")


def _own_session_viewer():
    """The viewer, if signed in by a link of their own: a device gets the notices of all
    the address's games, more than an invitation's session may see."""
    viewer = current_viewer()
    if viewer.player_id is not None:
        raise access.Forbidden(OWN_SESSION)
    return viewer


@bp.post("/settings/push")
@login_required
def add_push_device():
    """Keep this browser's push subscription as one of the person's devices."""
    viewer, lang = _own_session_viewer(), current_language()
    try:
        subscription = json.loads(request.form.get("subscription", ""))
    except ValueError:
        subscription = None  # push.subscribe says what is wrong with it
    try:
        device = push.subscribe(viewer.email, subscription, request.form.get("label", ""))
    except Invalid as exc:
        db.session.rollback()
        return settings_page(status=400, errors={"push": exc.sentence(lang)})
    db.session.commit()
    flash(translate(lang, "Notifications are on for “{}”.").format(
        device.label or translate(lang, "this device")), "ok")
    return redirect(url_for("player.settings") + "#push")


@bp.post("/settings/push/<int:subscription_id>/remove")
@login_required
def remove_push_device(subscription_id: int):
    """Remove one of the person's own devices; another's is not found (404)."""
    viewer, lang = _own_session_viewer(), current_language()
    if not push.remove(viewer.email, subscription_id):
        db.session.rollback()
        return settings_page(status=404, errors={
            "push": translate(lang, "No such device of yours; it may be removed already.")})
    db.session.commit()
    flash(translate(lang, "The device is removed; it gets no more notifications."), "ok")
    return redirect(url_for("player.settings") + "#push")
