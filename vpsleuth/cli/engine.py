"""``vpsleuth analyse GAME``: what the public record proves, for the GM or operator."""

from __future__ import annotations

import json

import click

from ..engine import analyse as analyse_record
from ..rules import LOCATIONS
from ..services import games
from ..services.record import public_record
from .common import gm_command


@gm_command(None, "analyse")
@click.argument("game")
@click.option("--round", "number", type=click.IntRange(0), default=None,
              help="The state after this round (default: the last resolved).")
@click.option("--format", "form", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--samples", type=click.IntRange(10), default=100, show_default=True,
              help="Probes of the estimate when exact counting is out of reach.")
def analyse(game, number, form, samples):
    """What the public record of GAME proves: possible places, bits left, chances."""
    record = public_record(games.find_game(game))
    last = len(record.rounds)
    if number is None:
        number = last
    elif number > last:
        raise click.ClickException(f"round {number} is not resolved (resolved: {last})")
    result = analyse_record(record.upto(number).answers(), samples=samples)
    if form == "json":
        data = {"game": game, "round": number, **result.to_json()}
        click.echo(json.dumps(data, indent=2, sort_keys=False))
        return
    click.echo(_text(result, number))


def _text(result, number: int) -> str:
    count = (f"{result.count}" if result.exact else
             f"about {result.count:.3g} (95% within ±{100 * result.relative_error:.0f}%)")
    certain = f"{len(result.certain())} of 36 gems certain."
    lines = [f"After round {number}: {count} distributions agree with the record, "
             f"{result.bits:.1f} bits left; {certain}" if result.count else
             f"After round {number}: distributions agree with the record, but too few "
             f"random walks reached one in the time to count them; {certain}"
             if result.unknown else
             f"After round {number}: no distribution agrees with the record.",
             "",
             f"{'gem':<5} {'possible':<17} "
             + ("chances" if result.chances_exact else "chances (sampled)")]
    for gem, places in result.possible.items():
        shown = "".join(loc if loc in places else "." for loc in LOCATIONS)
        top = sorted(result.chances[gem].items(), key=lambda kv: -kv[1])[:3]
        chances = "  ".join(f"{loc} {100 * c:.0f}%" for loc, c in top if c > 0)
        lines.append(f"{gem.code:<5} {shown:<17} {chances}")
    return "\n".join(lines)

