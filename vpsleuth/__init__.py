"""vpsleuth: a moderator for play-by-mail games of VP-Sleuth."""

from __future__ import annotations

import secrets
from pathlib import Path

from flask import Flask, has_request_context

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent  # the source tree, in a checkout
# templates/, config/, migrations/ and the served docs/: at the top of the source tree, and
# in an installed wheel inside the package, where setup.py's build copies them. _data/ is
# looked for first: beside an installed package there may be any folder named config/.
DATA = PACKAGE / "_data" if (PACKAGE / "_data").is_dir() else ROOT


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: config/default.py, then VPSLEUTH_* variables, then test_config.

    With a test_config, config/testing.py is loaded before it.
    """
    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(DATA / "templates"))
    app.config.from_pyfile(str(DATA / "config" / "default.py"))
    if test_config is not None:
        app.config.from_pyfile(str(DATA / "config" / "testing.py"))
    app.config.from_prefixed_env("VPSLEUTH")
    if test_config is not None:
        app.config.update(test_config)
    _embedded_defaults(app)
    if app.config.get("PROXY_FIX"):
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = int(app.config["PROXY_FIX"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)

    from .extensions import babel, db, mail, migrate
    from .i18n import DIRECTORY as TRANSLATIONS

    db.init_app(app)
    migrate.init_app(app, db, directory=str(DATA / "migrations"))
    mail.init_app(app)
    babel.init_app(app, locale_selector=_page_locale,
                   default_translation_directories=str(TRANSLATIONS))

    from . import api, cli, models, web  # noqa: F401  (models: the tables)
    from .mail import listeners, story_mail
    from .services import after_commit

    cli.register(app)
    web.init_app(app)
    api.init_app(app)
    story_mail.init_app(app)
    listeners.init_app(app)  # the mail channel listens to the services' signals
    after_commit.init_app(app)  # bots play, practice settles, after the services commit

    return app


def _embedded_defaults(app: Flask) -> None:
    """Zero set-up: SQLite and a generated secret key in the instance folder."""
    instance = Path(app.instance_path)
    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        instance.mkdir(parents=True, exist_ok=True)
        app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance / 'vpsleuth.db'}"
    if not app.config.get("SECRET_KEY"):
        instance.mkdir(parents=True, exist_ok=True)
        key_file = instance / "secret_key"
        if not key_file.exists():
            key_file.write_text(secrets.token_hex(32))
            key_file.chmod(0o600)
        app.config["SECRET_KEY"] = key_file.read_text().strip()


def _page_locale() -> str | None:
    """Flask-Babel's locale: the page language of this request (web/session.py);
    outside a request (jobs, CLI) None, that is English, since mails pick their own."""
    if not has_request_context():
        return None
    from .web.session import current_language

    return current_language()
