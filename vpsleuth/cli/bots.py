"""``vpsleuth bot add`` and ``vpsleuth practice``: computer players from the terminal."""

from __future__ import annotations

import sys

import click

from ..services import bots, games, practice, reports, resolution, turns
from ..services.errors import ServiceError, TurnRefused
from .common import ensure_schema, gm_command

REPORT_LANGUAGES = ("en", "de", "es")  # the catalogues; a game's own language may be fewer


@click.group("bot")
def bot_cli() -> None:
    """Computer players."""


@gm_command(bot_cli, "add")
@click.argument("game")
@click.argument("name")
@click.option("--level", type=click.Choice(bots.LEVELS), default="medium", show_default=True)
def bot_add(game, name, level):
    """Add a computer player NAME to GAME, before or during the game."""
    player = bots.add_bot(games.find_game(game), name, level, actor="cli")
    click.echo(f"Added bot {player.name!r} ({level}) to {player.game.name!r}.")


def _read_turn(number: int) -> str | None:
    """Lines up to an empty line or END; None at the end of the input."""
    click.echo(f"Round {number}: your turn (turn language; an empty line sends it, "
               "an empty turn passes):")
    lines = []
    while True:
        line = sys.stdin.readline()
        if not line:
            return "\n".join(lines) if lines else None
        if not line.strip() or line.strip().upper() in ("END", "ENDE"):
            return "\n".join(lines)
        lines.append(line.rstrip("\n"))


@click.command("practice")
@click.option("--bots", "count", type=click.IntRange(1, practice.MAX_BOTS), default=3,
              show_default=True, help="How many computer players.")
@click.option("--level", type=click.Choice(bots.LEVELS), default="medium", show_default=True)
@click.option("--language", type=click.Choice(REPORT_LANGUAGES), default="en",
              show_default=True, help="The language of the reports.")
@click.option("--rounds", type=click.IntRange(1, 12), default=12, show_default=True)
@click.option("--seed", type=int, help="Make the deal reproducible.")
def practice_cli(count, level, language, rounds, seed):
    """Play a practice game against computer players, reading your turns from the terminal."""
    ensure_schema()
    try:
        game = practice.create_practice(
            "you@practice.invalid", name="You", bots=count, level=level, rounds=rounds,
            language=language if language in games.LANGUAGES else "en", seed=seed)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from None
    you = practice.human_of(game)
    click.echo(f"Practice game {game.name!r}: you against {count} {level} bots, "
               f"{rounds} rounds. Ask with QUESTION, tip with TIP (see 'Turn language').")
    while game.state == "running":
        number = game.open_round.number
        text = _read_turn(number)
        if text is None:
            click.echo(f"Stopped in round {number}; the game stays as {game.name!r}.")
            return
        try:
            if text.strip():
                turns.submit_turn(you, text, channel="cli", entered_by="practice")
            else:
                resolution.resolve_round(game, number=number, actor="practice")
        except TurnRefused as exc:
            for err in exc.errors:
                click.echo(f"  {err}")
            click.echo("Nothing of that turn was applied; send it again.")
            continue
        except ServiceError as exc:
            raise click.ClickException(exc.message) from None
        click.echo(reports.render_text(reports.build_report(game, number, language),
                                       game.timezone, language))
    click.echo("The game has ended; the final standings are above.")

