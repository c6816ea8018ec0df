"""The ``vpsleuth`` command: a GM runs a whole game from the shell, an operator the service.

One module per command group, each thin over the services the web and mail
entrances call too; COMMANDS is the one list they are registered from (shared
helpers in common.py). Flask adds ``run``, ``shell`` and ``routes``, Flask-Migrate
``db`` (its entry point).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.cli import FlaskGroup

from .. import create_app
from . import (
    backup,
    bots,
    check,
    demo,
    engine,
    game,
    gm,
    mail,
    player,
    record,
    scheduler,
    translations,
    turn,
    verify,
)

COMMANDS = (
    game.game_cli, player.player_cli, turn.turn_cli, gm.gm_cli, bots.bot_cli,
    bots.practice_cli, engine.analyse, demo.demo, verify.verify, mail.mail_cli,
    scheduler.scheduler_command, scheduler.serve_command, check.check,
    translations.translations_cli, record.ratings_cli, record.account_cli,
    backup.backup_command, backup.restore_command,
)


def register(app: Flask) -> None:
    """Add every command of COMMANDS to ``app.cli`` (create_app does)."""
    for command in COMMANDS:
        app.cli.add_command(command)


def root(factory: Callable[[], Flask] = create_app) -> FlaskGroup:
    """The ``vpsleuth`` group, loading the app from ``factory`` when a command needs it."""
    return FlaskGroup(create_app=factory, add_version_option=False,
                      help="Moderate play-by-mail games of VP-Sleuth.")


def main() -> None:
    """The console script (pyproject.toml: ``vpsleuth = "vpsleuth.cli:main"``)."""
    root().main(prog_name="vpsleuth")
