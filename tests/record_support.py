"""What the tests of the community's record share (issue 22): finished games, quickly.

Games get a deadline a week after the real now (pages and the API read the real
clock) and are played by resolving each round at once, as a GM may.
"""

from __future__ import annotations

from datetime import timedelta

from vpsleuth.models import Game, GameMaster, utcnow
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import archive, games, ratings, resolution, stories, turns

TIMEZONE = "Europe/Berlin"
# Two rounds a game: questions that prove something, and tips right and wrong.
TURNS = ({"Ada": "QUESTION A red\nTIP A RD1", "Ben": "QUESTION B blue\nTIP X YO3",
          "Cy": "QUESTION C diamond"},
         {"Ada": "QUESTION D pearl", "Ben": "QUESTION E opal\nTIP B BP1", "Cy": "TIP C GD2"})


def week_ahead() -> str:
    return to_local(utcnow() + timedelta(days=7), TIMEZONE).strftime("%Y-%m-%d %H:%M")


def new_game(name: str, gm: GameMaster | None, players: dict[str, str], *, rounds: int = 2,
             public: bool = False, rated: bool = False, start: bool = True,
             seed: int = 5) -> Game:
    """A game with ``players`` (name -> address), its record choices set, started."""
    game = games.create_game(name, weekly(week_ahead(), TIMEZONE), Ruleset(rounds=rounds),
                             game_master_id=gm.id if gm is not None else None)
    for player, email in players.items():
        games.add_player(game, player, email)
    archive.set_public(game, public, actor="test")
    ratings.set_rated(game, rated, actor="test")
    if start:
        games.start_game(game, seed=seed)
    return game


def play(game: Game, rounds: int | None = None, texts=TURNS) -> Game:
    """Send the turns of TURNS (by name) and resolve, round after round."""
    for number in range(rounds or game.rounds):
        for player in game.active_players:
            text = texts[number % len(texts)].get(player.name)
            if text and not player.is_bot:
                turns.submit_turn(player, text, channel="cli")
        resolution.resolve_round(game, number=game.open_round.number)
    return game


def tell() -> None:
    """Run the tell-stories job until nothing is queued (each story once)."""
    for _ in range(5):
        if not stories.tell_queued():
            return
