"""The community's record from the shell: ratings, a person's data, a game's hand-over.

``vpsleuth ratings rebuild`` recomputes every rating from the stored results
(services/ratings.py); ``--check`` only compares. ``vpsleuth account export``
and ``account delete`` serve a person who asks the operator by mail (the
same services as the settings page). ``vpsleuth game hand-over`` gives a game
to a GM account (one whose GM left, say); ``game record`` sets whether a game
goes to the public archive and counts for the ratings.
"""

from __future__ import annotations

import json

import click

from ..services import archive, games, leaving, personal_data, ratings
from ..services.access import viewer_for
from .common import gm_command
from .game import game_cli

ratings_cli = click.Group("ratings", help="The players' ratings (OpenSkill Plackett-Luce).")
account_cli = click.Group("account", help="A person's data: export it, or delete the account.")


@gm_command(ratings_cli, "rebuild")
@click.option("--check", is_flag=True,
              help="Only compare the stored ratings with a recomputation; exit 1 if they differ.")
def rebuild(check: bool) -> None:
    """Recompute every rating from the stored results and store it; it must equal what was."""
    found = ratings.rebuild(write=not check)
    games_rated = len(ratings.rated_games())
    if not found:
        click.echo(f"{games_rated} rated games: every stored rating equals the rebuild.")
        return
    for line in found:
        click.echo(line, err=True)
    if check:
        raise click.ClickException(f"{len(found)} differences between the stored ratings "
                                   "and a rebuild; run without --check to store the rebuild")
    click.echo(f"{games_rated} rated games: {len(found)} differences found and rebuilt.")


@gm_command(account_cli, "export")
@click.argument("email")
def export_account(email: str) -> None:
    """Print everything stored about EMAIL as JSON (as the settings page gives it)."""
    data = personal_data.export(viewer_for(email))
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True))


@gm_command(account_cli, "delete")
@click.argument("email")
@click.option("--successor", help="Address of another game master, who takes EMAIL's games "
              "that have not ended (without one they go on without a game master).")
@click.option("--yes", is_flag=True, help="Confirm: this cannot be undone.")
def delete_account(email: str, successor: str | None, yes: bool) -> None:
    """Delete the account of EMAIL: seats stay as former players, nothing names them."""
    if not yes:
        raise click.ClickException("deleting an account cannot be undone: add --yes")
    successor_id = viewer_for(successor).gm_id if successor else None
    if successor and successor_id is None:
        raise click.ClickException(f"{successor} has no game master account here")
    left = leaving.delete_account(viewer_for(email), successor_id=successor_id)
    click.echo(f"Deleted {email}: withdrawn from {len(left.withdrawn)} running games, "
               f"{len(left.kept) + len(left.withdrawn)} seats kept as former players, "
               f"{len(left.handed_over)} games handed over, {len(left.without_gm)} left "
               "without a game master.")


@gm_command(game_cli, "hand-over")
@click.argument("game")
@click.argument("email")
def hand_over(game: str, email: str) -> None:
    """Make the game master account of EMAIL the game master of GAME (audited)."""
    found = games.find_game(game)
    gm = leaving.hand_over(found, email, actor="cli")
    click.echo(f"{found.name!r} is run by {gm.name} now.")


@gm_command(game_cli, "record")
@click.argument("game")
@click.option("--public/--private", default=None,
              help="Show the game in the public archive once it ends, or not.")
@click.option("--rated/--not-rated", default=None,
              help="Count the game for the ratings (only before it starts).")
def record(game: str, public: bool | None, rated: bool | None) -> None:
    """Whether GAME goes to the public archive and counts for the ratings."""
    found = games.find_game(game)
    if public is not None:
        archive.set_public(found, public, actor="cli")
    if rated is not None:
        ratings.set_rated(found, rated, actor="cli")
    click.echo(f"{found.name!r}: {'public' if found.public else 'private'}, "
               f"{'rated' if found.rated else 'not rated'}.")
