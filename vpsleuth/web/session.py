"""The signed-in viewer, from the secure session cookie."""

from __future__ import annotations

from functools import wraps

from flask import g, redirect, request, session, url_for

from ..services.access import Viewer, viewer_for

LANGUAGES = ("en", "de")


def current_viewer() -> Viewer | None:
    """The viewer of this request (cached on ``g``), or None when signed out."""
    if "viewer" not in g:
        email = session.get("email")
        g.viewer = viewer_for(email) if email else None
    return g.viewer


def sign_in(email: str) -> None:
    """A fresh session (no fixation), keeping only the chosen page language."""
    lang = session.get("lang")
    session.clear()
    session["email"] = email.strip().lower()
    if lang:
        session["lang"] = lang
    session.permanent = True


def sign_out() -> None:
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang


def current_language() -> str:
    """The page language: chosen in the session, else the browser's preference."""
    if "lang" not in g:
        chosen = session.get("lang")
        g.lang = chosen if chosen in LANGUAGES else (
            request.accept_languages.best_match(LANGUAGES) or "en")
    return g.lang


def login_required(view):
    """Send a signed-out visitor to the sign-in page, then back here."""
    @wraps(view)
    def wrapped(*args, **kwargs):
        if current_viewer() is None:
            return redirect(url_for("auth.signin", next=request.full_path))
        return view(*args, **kwargs)
    return wrapped
