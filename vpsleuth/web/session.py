"""The signed-in viewer: the session cookie names a session row kept on the server.

The cookie (signed, HttpOnly) carries a random session id; services.sessions
decides whether that session is live. Signing out ends the row, so a copied
cookie stops working.
"""

from __future__ import annotations

from functools import wraps

from flask import Flask, g, has_request_context, redirect, request, session, url_for
from flask.sessions import SecureCookieSessionInterface

from ..services import preferences, sessions
from ..services.access import Viewer, viewer_for

LANGUAGES = ("en", "de", "es")


class QuietCookies(SecureCookieSessionInterface):
    """Flask's signed cookie, not sent again with what the browser fetches beside a page.

    A signed-in session is permanent, so Flask sends its cookie again with every
    answer. The browser fetches the stylesheet, the scripts and, once a page has
    loaded, the service worker (/sw.js) on its own; such an answer, sent after a
    language switch or a sign-out that went meanwhile, put the old cookie back (a
    German page turned English). These answers now carry no cookie, unless the
    request itself changed the session (an ended session being forgotten).
    """

    QUIET = frozenset({"static", "installable.service_worker", "installable.manifest"})

    def should_set_cookie(self, app: Flask, session) -> bool:
        if request.endpoint in self.QUIET and not session.modified:
            return False
        return super().should_set_cookie(app, session)


def current_viewer() -> Viewer | None:
    """The viewer of this request (cached on ``g``), or None when signed out."""
    if "viewer" not in g:
        raw = session.get("sid")
        row = sessions.live(raw) if isinstance(raw, str) else None
        if raw is not None and row is None:
            _forget()  # ended or expired elsewhere: the cookie is dropped
        g.viewer = viewer_for(row.email, row.player_id) if row is not None else None
    return g.viewer


def sign_in(email: str, player_id: int | None = None) -> None:
    """A fresh session (no fixation), keeping only the chosen page language.

    With ``player_id`` the session is good for that one player only (an
    invitation link).
    """
    old = session.get("sid")
    if isinstance(old, str):
        sessions.end(old)
    _forget()
    session["sid"] = sessions.start(email, player_id=player_id)
    session.permanent = True
    g.pop("viewer", None)


def sign_out() -> None:
    """End this session on the server and forget it in the browser."""
    raw = session.get("sid")
    if isinstance(raw, str):
        sessions.end(raw)
    _forget()
    g.viewer = None


def _forget() -> None:
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang


def current_language() -> str:
    """The page language: chosen in this session (/lang/<code>), else the signed-in
    person's own setting (their games' or GM account's), else the browser's preference."""
    if "lang" not in g:
        chosen = session.get("lang")
        if chosen not in LANGUAGES and current_viewer() is not None:
            chosen = preferences.site_language(current_viewer())
        g.lang = chosen if chosen in LANGUAGES else browser_language()
    return g.lang


def page_locale() -> str | None:
    """Flask-Babel's locale: the page language of this request; outside a request
    (jobs, CLI) None, that is English, since mails pick their own."""
    return current_language() if has_request_context() else None


def browser_language() -> str:
    """The language chosen in this session, else the browser's best among LANGUAGES,
    else English: what can be known without the database."""
    chosen = session.get("lang")
    return chosen if chosen in LANGUAGES else (
        request.accept_languages.best_match(LANGUAGES) or "en")


def login_required(view):
    """Send a signed-out visitor to the sign-in page, then back here."""
    @wraps(view)
    def wrapped(*args, **kwargs):
        if current_viewer() is None:
            return redirect(url_for("auth.signin", next=request.full_path))
        return view(*args, **kwargs)
    return wrapped
