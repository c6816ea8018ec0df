"""``vpsleuth mail ...``: the outbox and the inbound pipeline from the shell."""

from __future__ import annotations

import click


@click.group("mail")
def mail_cli() -> None:
    """Read the outbox, send mail, ingest and reprocess inbound mail."""


def register(app) -> None:
    # Each module adds its commands to mail_cli when imported.
    from . import outbox_cli  # noqa: F401
    from .inbound import cli  # noqa: F401

    app.cli.add_command(mail_cli)
