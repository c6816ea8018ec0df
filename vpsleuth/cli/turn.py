"""``vpsleuth turn ...``: submit a turn in the turn language and show the standing one."""

from __future__ import annotations

import click

from ..orders import format_turn
from ..services import games, standing_turns, turns
from .common import gm_command


@click.group("turn")
def turn_cli() -> None:
    """Submit and show turns."""


@gm_command(turn_cli, "submit")
@click.argument("game")
@click.argument("player")
@click.argument("source", type=click.File("r", encoding="utf-8", errors="replace"),
                default="-")
@click.option("--round", "number", type=int, help="Refuse unless this round is open.")
def submit(game, player, source, number):
    """Submit a turn in the turn language from a file or standard input."""
    g = games.find_game(game)
    p = games.find_player(g, player)
    sub = turns.submit_turn(p, source.read(), channel="cli", entered_by="cli",
                            round_number=number)
    click.echo(f"Accepted for round {sub.round.number}. Standing turn of {p.name}:")
    click.echo(format_turn(sub.standing.question, sub.standing.tips, p.language), nl=False)


@gm_command(turn_cli, "show")
@click.argument("game")
@click.argument("player")
def show(game, player):
    """Show a player's standing turn in the open round (GM only)."""
    g = games.find_game(game)
    p = games.find_player(g, player)
    round_ = g.open_round
    if round_ is None:
        raise click.ClickException(f"{g.name!r} has no open round")
    t = standing_turns.standing_turn(round_, p)
    click.echo(format_turn(t.question, t.tips, p.language), nl=False)
