"""How the pages answer what went wrong: a refused action, a database that is away, no page.

Each answer is the error page in the viewer's language with its HTTP status
(``STATUS`` per service error code, shared with the routes that answer a
refusal on their own page); under /api/ the API's JSON shape instead.
"""

from __future__ import annotations

from flask import Flask, g, render_template, request
from sqlalchemy.exc import InterfaceError, OperationalError

from ..extensions import db
from ..i18n import translate
from ..services.errors import ServiceError
from .session import browser_language, current_language

STATUS = {"not_found": 404, "forbidden": 403, "invalid": 400, "wrong_state": 409,
          "round_closed": 409, "turn_refused": 422, "rate_limited": 429,
          "sign_in_refused": 400}


def init_app(app: Flask) -> None:
    """Register the error pages."""

    @app.errorhandler(ServiceError)
    def service_error(exc: ServiceError):
        message = exc.text(current_language())
        return render_template("web/error.html", message=message), STATUS.get(exc.code, 400)

    @app.errorhandler(OperationalError)
    @app.errorhandler(InterfaceError)
    def database_unavailable(exc):
        """The database is down or restarting: say so, never a traceback; retry later."""
        db.session.rollback()
        app.logger.warning("database unavailable: %s", exc.__class__.__name__)
        if request.path.startswith("/api/"):
            message = "The database is unavailable for a moment. Please try again shortly."
            body = {"error": {"code": "unavailable", "message": message}}
            return body, 503, {"Retry-After": "30"}
        g.lang = browser_language()  # the viewer's own setting would need the database
        message = translate(g.lang, "The database is unavailable for a moment. "
                                    "Please try again shortly.")
        return render_template("web/error.html", message=message), 503, {"Retry-After": "30"}

    @app.errorhandler(404)
    def not_found(exc):
        if request.path.startswith("/api/"):
            return {"error": {"code": "not_found", "message": "no such API route",
                              "details": None}}, 404
        message = translate(current_language(), "This page does not exist.")
        return render_template("web/error.html", message=message), 404
