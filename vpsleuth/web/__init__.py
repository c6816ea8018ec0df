"""The web pages: sign-in, the players' pages and the game master's console."""

from __future__ import annotations

from flask import Flask, g, has_request_context, render_template, request
from sqlalchemy.exc import InterfaceError, OperationalError

from ..extensions import db
from ..i18n import translate, translator
from ..i18n.story_words import story_in_words
from ..services.errors import ServiceError
from . import inputs, security
from .session import browser_language, current_language, current_viewer

STATUS = {"not_found": 404, "forbidden": 403, "invalid": 400, "wrong_state": 409,
          "round_closed": 409, "turn_refused": 422, "rate_limited": 429,
          "sign_in_refused": 400}


def init_app(app: Flask) -> None:
    """Input limits, security, the blueprints, and what every template can use."""
    inputs.init_app(app)  # first: the id converter must be in place before any route
    security.init_app(app)
    from .dates import decimal

    app.jinja_env.filters["decimal"] = decimal  # numbers in pages and mails, by locale
    app.jinja_env.globals["story_in_words"] = story_in_words  # the story page and mail alike
    from . import legal  # noqa: F401  (its pages join the docs blueprint)
    from .auth import bp as auth_bp
    from .docs import bp as docs_bp
    from .health import bp as health_bp

    app.register_blueprint(auth_bp)
    app.register_blueprint(docs_bp)
    app.register_blueprint(health_bp)
    from .gm import bp as gm_bp
    from .lobby import bp as lobby_bp
    from .player import bp as player_bp

    app.register_blueprint(player_bp)
    app.register_blueprint(gm_bp)
    app.register_blueprint(lobby_bp)
    from .practice import bp as practice_bp

    app.register_blueprint(practice_bp)
    from .archive import bp as archive_bp
    from .leaderboard import bp as leaderboard_bp

    app.register_blueprint(archive_bp)
    app.register_blueprint(leaderboard_bp)

    @app.context_processor
    def page_globals():
        if not has_request_context():
            return {}  # mails rendered by jobs and the CLI bring their own words
        lang = current_language()
        return {"viewer": current_viewer(), "lang": lang, "t": translator(lang)}

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
