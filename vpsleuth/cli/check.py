"""``vpsleuth check``: read the configuration and say in plain words what is wrong.

It exits 1 if any error was found, so it can guard a deployment script; the checks
themselves are in vpsleuth/services/check.py.
"""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from ..services.check import run_checks


@click.command("check")
@with_appcontext
def check() -> None:
    """Read the configuration and tell what is wrong, in plain words."""
    findings = run_checks()
    marks = {"ok": "ok     ", "warning": "WARNING", "error": "ERROR  "}
    for level, message in findings:
        click.echo(f"{marks[level]} {message}")
    errors = sum(1 for level, _ in findings if level == "error")
    if errors:
        raise click.ClickException(f"{errors} problem(s) to fix")
    click.echo("No errors.")
