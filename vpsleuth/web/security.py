"""CSRF protection, secure cookies and security headers for every page."""

from __future__ import annotations

from flask import Flask, g, request, session
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()

HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                "script-src 'self'; frame-ancestors 'none'; base-uri 'self'; "
                                "form-action 'self'"),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


def init_app(app: Flask) -> None:
    # Cookie flags come from config/default.py (SESSION_COOKIE_SECURE: true behind HTTPS).
    csrf.init_app(app)

    @app.after_request
    def security_headers(response):
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if app.config.get("SESSION_COOKIE_SECURE"):
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
        if "Cache-Control" not in response.headers and private_answer():
            response.headers["Cache-Control"] = "no-store"
        return response


def private_answer() -> bool:
    """Whether this answer is for one person's eyes, so no cache may keep it.

    Every page a signed-in viewer gets names them and may show their turn, tips,
    notebook, feed links or tokens; every API answer is for its token's owner;
    a page under a link's token (sign-in, address change) carries the token.
    A view that sets Cache-Control itself (the feeds) keeps its own. Static
    files are the same for everybody (and reading the session would add
    "Vary: Cookie" to them).
    """
    if g.get("viewer") is not None or g.get("api_caller") is not None:
        return True
    return request.endpoint != "static" and (
        "token" in (request.view_args or {}) or "sid" in session)
