"""Sign-in by emailed link, sign-out, language choice and the home page."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, session, url_for

from ..extensions import db
from ..i18n import N_
from ..mail import notify
from ..models import Player
from ..services import auth, sessions
from ..services.errors import ServiceError
from .glance import game_cards
from .session import LANGUAGES, current_language, current_viewer, sign_in, sign_out

bp = Blueprint("auth", __name__)


# Control characters could split the Location header (werkzeug refuses them with a
# 500); a backslash is read as a slash by browsers, so "/\evil.example" is another host.
_UNSAFE_IN_NEXT = re.compile(r"[\x00-\x1f\x7f-\x9f\\]")
MAX_NEXT = 2000  # a path of ours is far shorter; a longer one would bloat the session cookie


def _safe_next(target: str | None) -> str:
    """Only same-site paths: never redirect to another host after sign-in.

    Anything else (another host, control characters, a backslash, an overlong
    value) sends the visitor home instead.
    """
    if (not isinstance(target, str) or not target or len(target) > MAX_NEXT
            or _UNSAFE_IN_NEXT.search(target)):
        return url_for("auth.home")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return url_for("auth.home")
    return target


@bp.get("/")
def home():
    viewer = current_viewer()
    if viewer is None:
        return render_template("web/home.html", games=[])
    return render_template("web/home.html", cards=game_cards(viewer))


@bp.route("/signin", methods=["GET", "POST"])
def signin():
    if request.method == "GET":
        return render_template("web/auth/signin.html", next=request.args.get("next", ""))
    email = request.form.get("email", "").strip()
    if "@" not in email or len(email) > 254:
        flash(N_("Please enter the email address you play with."), "error")
        return render_template("web/auth/signin.html", email=email), 400
    try:
        token = auth.request_sign_in(email, request.remote_addr or "unknown")
    except auth.RateLimited as exc:
        # Counted per client, for every address alike: this tells nobody who plays.
        flash(exc.text(current_language()), "error")
        return render_template("web/auth/signin.html", email=email), 429
    if token is not None:
        notify.sign_in(email, token, current_language())
        db.session.commit()
    session["next"] = _safe_next(request.form.get("next"))
    # The same answer for known and unknown addresses, and at an address's limit.
    return render_template("web/auth/sent.html", email=email)


@bp.get("/signin/<token>")
def confirm(token: str):
    """A page with a button: link scanners that fetch the link do not use it up."""
    return render_template("web/auth/confirm.html", token=token)


@bp.post("/signin/<token>")
def redeem(token: str):
    try:
        granted = auth.redeem_token(token)
    except ServiceError as exc:
        flash(exc.text(current_language()), "error")
        return render_template("web/auth/signin.html"), 400
    if granted.player_id is None:
        target = _safe_next(session.get("next"))
        sign_in(granted.email)
        if target == url_for("auth.home") and current_viewer().is_gm:
            target = url_for("gm.index")  # a GM lands on the console, which lists their play
        return redirect(target)
    # An invitation: this one player in this one game, and nothing else.
    viewer = current_viewer()
    if viewer is None or viewer.email != granted.email or viewer.player_id is not None:
        sign_in(granted.email, player_id=granted.player_id)
    player = db.session.get(Player, granted.player_id)
    return redirect(url_for("player.game", game_id=player.game_id))


@bp.post("/signout")
def signout():
    sign_out()
    return redirect(url_for("auth.home"))


@bp.post("/signout/everywhere")
def signout_everywhere():
    """End every session of this address (an invitation's session: those of its player)."""
    viewer = current_viewer()
    if viewer is not None:
        sessions.end_all(viewer.email, player_id=viewer.player_id)
        db.session.commit()
    sign_out()
    flash(N_("You are signed out on every device."), "ok")
    return redirect(url_for("auth.signin"))


@bp.get("/lang/<code>")
def language(code: str):
    if code in LANGUAGES:
        session["lang"] = code
    return redirect(_safe_next(request.args.get("next")))
