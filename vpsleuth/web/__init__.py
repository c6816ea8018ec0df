"""The web pages: sign-in, the players' pages and the game master's console."""

from __future__ import annotations

from flask import Flask, has_request_context

from ..i18n import house_rules, translator
from ..i18n.dates import decimal
from ..i18n.story_words import story_in_words
from . import errors, inputs, legal, security  # noqa: F401  (legal: pages on the docs blueprint)
from .archive import bp as archive_bp
from .auth import bp as auth_bp
from .docs import bp as docs_bp
from .gm import bp as gm_bp
from .health import bp as health_bp
from .installable import bp as installable_bp
from .leaderboard import bp as leaderboard_bp
from .lobby import bp as lobby_bp
from .player import bp as player_bp
from .practice import bp as practice_bp
from .session import QuietCookies, current_language, current_viewer


def init_app(app: Flask) -> None:
    """Input limits, security, the blueprints, and what every template can use."""
    inputs.init_app(app)  # first: the id converter must be in place before any route
    security.init_app(app)
    app.session_interface = QuietCookies()
    # Pages and mails alike: numbers by locale, the story in words, the house rules.
    app.jinja_env.filters["decimal"] = decimal
    app.jinja_env.globals["story_in_words"] = story_in_words
    app.jinja_env.globals["house_rules"] = house_rules
    for blueprint in (auth_bp, docs_bp, health_bp, player_bp, gm_bp, lobby_bp, practice_bp,
                      archive_bp, leaderboard_bp, installable_bp):
        app.register_blueprint(blueprint)
    errors.init_app(app)

    @app.context_processor
    def page_globals():
        if not has_request_context():
            return {}  # mails rendered by jobs and the CLI bring their own words
        lang = current_language()
        return {"viewer": current_viewer(), "lang": lang, "t": translator(lang)}
