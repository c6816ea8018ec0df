"""``vpsleuth demo``: a sample game played with random legal turns, its reports printed."""

from __future__ import annotations

import random

import click

from ..services import reports
from ..services.demo import DEMO_PLAYERS, play_round, sample_game
from .common import ensure_schema


@click.command("demo")
@click.option("--players", type=click.IntRange(2, len(DEMO_PLAYERS)), default=4,
              show_default=True)
@click.option("--rounds", type=click.IntRange(1, 12), default=12, show_default=True,
              help="How many rounds to resolve now.")
@click.option("--seed", type=int, help="Make the demo reproducible.")
@click.option("--all-reports", is_flag=True, help="Print every round's report, not just the last.")
def demo(players, rounds, seed, all_reports):
    """Set up a sample game, play random legal turns and print real reports."""
    ensure_schema()
    rng = random.Random(seed)
    game = sample_game(players, None if seed is None else rng.randrange(2**32))
    for number in range(1, rounds + 1):
        play_round(game, number, rng)
        if all_reports or number == rounds or game.state == "finished":
            click.echo(reports.render_text(reports.build_report(game, number), game.timezone))
        if game.state == "finished":
            break
    click.echo(f"Demo game {game.id} {game.name!r} is in the database; try "
               f"'vpsleuth game report {game.id} --round 1'.")
