"""Sign-in by emailed link, sign-out, language choice and the home page."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, session, url_for

from ..extensions import db
from ..mail import notify
from ..services import access, auth
from ..services.errors import ServiceError
from .session import LANGUAGES, current_language, current_viewer, sign_in, sign_out

bp = Blueprint("auth", __name__)


def _safe_next(target: str | None) -> str:
    """Only same-site paths: never redirect to another host after sign-in."""
    if not target:
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
    return render_template("web/home.html", games=access.games_of(viewer))


@bp.route("/signin", methods=["GET", "POST"])
def signin():
    if request.method == "GET":
        return render_template("web/auth/signin.html", next=request.args.get("next", ""))
    email = request.form.get("email", "").strip()
    if "@" not in email or len(email) > 254:
        flash("Please enter the email address you play with.", "error")
        return render_template("web/auth/signin.html", email=email), 400
    if auth.known_email(email):
        try:
            token = auth.issue_token(email)
        except auth.RateLimited as exc:
            flash(exc.message, "error")
            return render_template("web/auth/signin.html", email=email), 429
        notify.sign_in(email, token, current_language())
        db.session.commit()
    session["next"] = _safe_next(request.form.get("next"))
    # The same answer for known and unknown addresses: no one learns who plays.
    return render_template("web/auth/sent.html", email=email)


@bp.get("/signin/<token>")
def confirm(token: str):
    """A page with a button: link scanners that fetch the link do not use it up."""
    return render_template("web/auth/confirm.html", token=token)


@bp.post("/signin/<token>")
def redeem(token: str):
    try:
        email = auth.redeem_token(token)
    except ServiceError as exc:
        flash(exc.message, "error")
        return render_template("web/auth/signin.html"), 400
    target = session.get("next")
    sign_in(email)
    return redirect(_safe_next(target))


@bp.post("/signout")
def signout():
    sign_out()
    return redirect(url_for("auth.home"))


@bp.get("/lang/<code>")
def language(code: str):
    if code in LANGUAGES:
        session["lang"] = code
    return redirect(_safe_next(request.args.get("next")))
