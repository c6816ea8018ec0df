"""``vpsleuth player ...``: add, list, withdraw and replace a game's players."""

from __future__ import annotations

import click

from ..services import games, seats
from .common import gm_command


@click.group("player")
def player_cli() -> None:
    """Add, list, withdraw and replace players."""


@gm_command(player_cli, "add")
@click.argument("game")
@click.argument("name")
@click.argument("email")
@click.option("--language", type=click.Choice(list(games.LANGUAGES)))
def add_player(game, name, email, language):
    """Add a player to a game."""
    p = games.add_player(games.find_game(game), name, email, language=language, actor="cli")
    click.echo(f"Added player {p.id} {p.name} <{p.email}>")


@gm_command(player_cli, "withdraw")
@click.argument("game")
@click.argument("player")
def withdraw_player(game, player):
    """Withdraw a player (no longer active)."""
    g = games.find_game(game)
    p = games.find_player(g, player)
    games.withdraw_player(p, actor="cli")
    click.echo(f"Withdrew {p.name} from {g.name!r}")


@gm_command(player_cli, "replace")
@click.argument("game")
@click.argument("player")
@click.argument("name")
@click.argument("email")
@click.option("--language", type=click.Choice(list(games.LANGUAGES)),
              help="The newcomer's language (default: the game's).")
def replace_player(game, player, name, email, language):
    """Hand PLAYER's seat to a substitute NAME at EMAIL (points and history stay)."""
    g = games.find_game(game)
    p = games.find_player(g, player)
    change = seats.replace_player(g, p, name, email, actor="cli", language=language)
    click.echo(f"{change.old_name}'s seat in {g.name!r} is {p.name} <{p.email}>'s from round "
               f"{change.from_round}; the invitation is queued")


@gm_command(player_cli, "list")
@click.argument("game")
def list_players(game):
    """List a game's players."""
    for p in games.find_game(game).players:
        click.echo(f"{p.id:>4}  {p.name:<20} {p.email:<30} {p.language} "
                   f"{'active' if p.active else 'withdrawn'} "
                   + (f"bot ({p.bot_level})" if p.is_bot else
                      'joined' if p.first_signed_in_at else 'invited'))
