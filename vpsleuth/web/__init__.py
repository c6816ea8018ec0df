"""The web pages: sign-in, the players' pages and the game master's console."""

from __future__ import annotations

from flask import Flask, has_request_context, render_template, request

from ..i18n import translator
from ..services.errors import ServiceError
from . import security, strings  # noqa: F401  (strings: German words)
from .session import current_language, current_viewer

STATUS = {"not_found": 404, "forbidden": 403, "invalid": 400, "wrong_state": 409,
          "round_closed": 409, "turn_refused": 422, "rate_limited": 429,
          "sign_in_refused": 400}


def init_app(app: Flask) -> None:
    """Security, the blueprints, and what every template can use."""
    security.init_app(app)
    from .auth import bp as auth_bp
    from .health import bp as health_bp

    app.register_blueprint(auth_bp)
    app.register_blueprint(health_bp)
    for name in ("player", "gm"):
        module = _optional_blueprint(name)
        if module is not None:
            app.register_blueprint(module.bp)

    @app.context_processor
    def page_globals():
        if not has_request_context():
            return {}  # mails rendered by jobs and the CLI bring their own words
        lang = current_language()
        return {"viewer": current_viewer(), "lang": lang, "t": translator(lang)}

    @app.errorhandler(ServiceError)
    def service_error(exc: ServiceError):
        return render_template("web/error.html", message=exc.message), STATUS.get(exc.code, 400)

    @app.errorhandler(404)
    def not_found(exc):
        if request.path.startswith("/api/"):
            return {"error": {"code": "not_found", "message": "no such API route"}}, 404
        return render_template("web/error.html", message="This page does not exist."), 404


def _optional_blueprint(name: str):
    """The player and GM blueprints, once their packages exist."""
    import importlib

    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        return None
