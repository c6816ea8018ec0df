"""``vpsleuth check``: read the configuration and say in plain words what is wrong.

It exits 1 if any error was found, so it can guard a deployment script; the checks
themselves are in vpsleuth/services/check.py.
"""

from __future__ import annotations

import click
from flask.cli import with_appcontext
from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db
from ..notices import queue
from ..services.check import run_checks


@click.command("check")
@with_appcontext
def check() -> None:
    """Read the configuration and tell what is wrong, in plain words."""
    findings = run_checks() + notice_queue()
    marks = {"ok": "ok     ", "warning": "WARNING", "error": "ERROR  "}
    for level, message in findings:
        click.echo(f"{marks[level]} {message}")
    errors = sum(1 for level, _ in findings if level == "error")
    if errors:
        raise click.ClickException(f"{errors} problem(s) to fix")
    click.echo("No errors.")


def notice_queue() -> list[tuple[str, str]]:
    """The push and webhook notices by status (the queue is a channel's, above the
    services, so it is read here): a warning while some were given up."""
    try:
        counts = queue.counts()
    except SQLAlchemyError:  # the database check says what is wrong with it
        db.session.rollback()
        return []
    listed = ", ".join(f"{n} {status}" for status, n in counts.items())
    if counts["failed"]:
        return [("warning", f"notice queue (push, webhooks): {listed}; the failed ones were "
                 "given up after NOTICE_MAX_ATTEMPTS tries (their last error: the notice "
                 "table's last_error)")]
    return [("ok", f"notice queue (push, webhooks): {listed}")]
