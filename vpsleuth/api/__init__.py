"""The JSON API at /api/v1: bearer tokens, JSON in and out, described by openapi.json.

Views are thin: they check the JSON they get (400 naming the field), call the
services, and serialize what comes back. Every error is
``{"error": {"code", "message", "details"}}`` (see errors.py).
"""

from __future__ import annotations

from flask import Blueprint, Flask

PREFIX = "/api/v1"

bp = Blueprint("api", __name__, url_prefix=PREFIX)


def init_app(app: Flask) -> None:
    """Register the API blueprint; exempt it from cookie-form CSRF checks.

    create_app() calls this after web.init_app(), so a CSRFProtect set up by the
    web pages is in app.extensions by now. Bearer tokens are not sent by
    browsers on their own, so a cross-site form cannot forge an API call.
    """
    app.url_map.converters.setdefault("api_any_path", errors.AnyPathConverter)
    app.register_blueprint(bp)
    csrf = app.extensions.get("csrf")
    if csrf is not None:
        csrf.exempt(bp)


# The routes register themselves on bp when imported; they import bp and PREFIX from here.
from . import (  # noqa: E402, F401
    absences,
    auth,
    board,
    errors,
    games,
    gm,
    lobby,
    notebook,
    openapi,
    record,
    story,
    turns,
    webhook,
)
