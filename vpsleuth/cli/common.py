"""What every command of the ``vpsleuth`` package shares: the schema check and the
decorator that runs a command in an app context with service errors said plainly."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

import click
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade

from ..extensions import db
from ..i18n.schedule_words import schedule_error_text
from ..rules import RulesetError
from ..rules.schedule import ScheduleError
from ..services.errors import ServiceError, TurnRefused


def gm_command(group: click.Group | None, name: str | None = None) -> Callable:
    """A click command of ``group`` (a top-level command if None) in an app context,
    the schema checked first, with service errors shown plainly."""
    def decorate(func):
        @wraps(func)
        def run(*args, **kwargs):
            ensure_schema()
            try:
                return func(*args, **kwargs)
            except TurnRefused as exc:
                for err in exc.errors:
                    click.echo(f"  {err}", err=True)
                raise click.ClickException("turn refused; nothing of it was applied") from None
            except ServiceError as exc:
                raise click.ClickException(exc.message) from None
            except ScheduleError as exc:
                raise click.ClickException(schedule_error_text(exc)) from None
            except RulesetError as exc:
                raise click.ClickException(str(exc)) from None
        make = group.command if group is not None else click.command
        return make(name)(with_appcontext(run))
    return decorate


def ensure_schema() -> None:
    """Embedded SQLite upgrades itself; another database must be at the newest revision."""
    if db.engine.dialect.name == "sqlite":
        upgrade()
        return
    script = ScriptDirectory.from_config(current_app.extensions["migrate"].migrate.get_config())
    with db.engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    if current != script.get_current_head():
        raise click.ClickException("the database schema is not up to date: run "
                                   "'vpsleuth db upgrade' first")
