"""vpsleuth: a moderator for play-by-mail games of VP-Sleuth."""

from __future__ import annotations

import secrets
from pathlib import Path

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

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
    # Lazy: Python runs this module before any other of the package, so at the top
    # these would load the whole app (blueprints, models, the mail channel) for whoever
    # imports only the pure core (rules, orders, engine), and would run while this
    # module is half-done (web.docs imports DATA from here).
    from . import api, cli, models, web  # noqa: F401  (models: the tables)
    from .extensions import babel, db, mail, migrate
    from .i18n import DIRECTORY as TRANSLATIONS
    from .mail import listeners, story_mail
    from .notices import push as notices_push
    from .notices import webhook as notices_webhook
    from .services import after_commit

    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(DATA / "templates"))
    app.config.from_pyfile(str(DATA / "config" / "default.py"))
    if test_config is not None:
        app.config.from_pyfile(str(DATA / "config" / "testing.py"))
    app.config.from_prefixed_env("VPSLEUTH")
    if test_config is not None:
        app.config.update(test_config)
    _embedded_defaults(app)
    _postgresql_sessions(app)
    if app.config.get("PROXY_FIX"):
        hops = int(app.config["PROXY_FIX"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(DATA / "migrations"))
    mail.init_app(app)
    babel.init_app(app, locale_selector=web.session.page_locale,
                   default_translation_directories=str(TRANSLATIONS))

    cli.register(app)
    web.init_app(app)
    api.init_app(app)
    story_mail.init_app(app)
    listeners.init_app(app)  # the mail channel listens to the services' signals
    notices_push.init_app(app)  # the Web Push channel too (vpsleuth/notices/push.py)
    notices_webhook.init_app(app)  # and the chat webhooks (vpsleuth/notices/webhook.py)
    after_commit.init_app(app)  # bots play, practice settles, after the services commit

    return app


def _postgresql_sessions(app: Flask) -> None:
    """On PostgreSQL, the server ends a session left idle inside a transaction.

    A host cut off from the network in the middle of a transaction (resolving a
    round, claiming a mail) holds that transaction's locks until the server ends
    its session: left to TCP, hours. After DATABASE_IDLE_IN_TRANSACTION_SECONDS the
    server rolls it back, so another scheduler takes the round at its next tick,
    and the cut-off host, back on the network, finds its connection gone and does
    nothing twice. No transaction of ours waits that long between two statements:
    mail is sent and stories are computed outside one, and a push or webhook
    waits at most its timeout (10 s).
    """
    seconds = int(app.config.get("DATABASE_IDLE_IN_TRANSACTION_SECONDS") or 0)
    if not seconds or not str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("postgresql"):
        return
    options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    connect_args = dict(options.get("connect_args") or {})
    setting = f"-c idle_in_transaction_session_timeout={seconds * 1000}"
    connect_args["options"] = " ".join(filter(None, (connect_args.get("options"), setting)))
    options["connect_args"] = connect_args
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options


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
