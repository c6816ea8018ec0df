"""Plain helpers of the hostile-input tests: games on the real clock.

The API and the mail pipeline read the real clock, so the games here get
deadlines a week after the real now.
"""

from __future__ import annotations

from datetime import timedelta

from vpsleuth.models import Game, GameMaster, utcnow
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import games, resolution, turns

TIMEZONE = "Europe/Berlin"


def _next_week() -> str:
    return to_local(utcnow() + timedelta(days=7), TIMEZONE).strftime("%Y-%m-%d %H:%M")


def make_game(name: str, gm: GameMaster | None, players: list[tuple[str, str]],
              **rules) -> Game:
    """A game with a deadline a week ahead and its players added (not started)."""
    game = games.create_game(name, weekly(_next_week(), TIMEZONE), Ruleset(**rules),
                             game_master_id=gm.id if gm is not None else None)
    for player_name, email in players:
        games.add_player(game, player_name, email)
    return game


def play_round(game: Game, texts: dict[str, str]) -> None:
    """Submit a turn per named player, then resolve the open round."""
    for player in game.players:
        if player.name in texts:
            turns.submit_turn(player, texts[player.name], channel="cli")
    resolution.resolve_round(game, number=game.open_round.number)
