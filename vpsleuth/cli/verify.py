"""``vpsleuth verify``: anyone checks a revealed deal against the published commitment."""

from __future__ import annotations

import click

from ..rules import verify_commitment


@click.command("verify")
@click.option("--distribution", required=True, help="A=...;B=...;...;X=... as revealed.")
@click.option("--salt", required=True)
@click.option("--commitment", required=True, help="The SHA-256 published at the start.")
def verify(distribution, salt, commitment):
    """Check a revealed distribution and salt against the published commitment."""
    if not verify_commitment(distribution, salt, commitment):
        raise click.ClickException("MISMATCH: this distribution and salt do not give that "
                                   "commitment")
    click.echo("OK: the distribution and salt match the commitment.")
