"""``vpsleuth gm add``: game master accounts are made from the shell, never on the web."""

from __future__ import annotations

import click

from ..services import accounts
from ..services.links import base_url
from .common import gm_command

# No help text: ``vpsleuth --help`` lists it bare, as tests/unit/test_cli_tree.py records.
gm_cli = click.Group("gm")


@gm_command(gm_cli, "add")
@click.argument("email")
@click.argument("name")
@click.option("--language", type=click.Choice(["en", "de", "es"]), default="en", show_default=True,
              help="The language of the GM's mails.")
def add_game_master(email: str, name: str, language: str) -> None:
    """Create a game master account for EMAIL, shown as NAME; it signs in by emailed link."""
    gm = accounts.create_game_master(email, name, language)
    base = base_url()  # BASE_URL, else where `vpsleuth serve` listens
    click.echo(f"Game master {gm.name} <{gm.email}> added (id {gm.id}). "
               f"Sign in at {base}/signin, then open {base}/gm/.")
