"""A game set up through the services, as a GM would, on the real clock.

The mail and HTTP benchmarks send turns the way players do, and the services
take the time of a turn from the real clock; so the open round's deadline lies
ahead of the real now (unlike bench/data.py, whose games are due at a fixed
NOW). Every tenth player writes German.
"""

from __future__ import annotations

import random
from datetime import timedelta

from vpsleuth.models import Game, Player, utcnow
from vpsleuth.rules import GEMS, LOCATIONS
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import games, turns
from vpsleuth.services.resolution import resolve_round

ZONE = "Europe/Berlin"


def live_game(name: str, players: int, *, open_round: int = 3, seed: int = 1) -> Game:
    """A running game of ``players`` players whose round ``open_round`` is open.

    Every player sent a turn (a question, six tips) in the round before it, so
    REPEAT has tips to repeat; earlier rounds resolved empty. The open round's
    deadline is a week or more ahead of now.
    """
    rng = random.Random(seed)
    first = to_local(utcnow() + timedelta(days=2), ZONE).strftime("%Y-%m-%d 20:00")
    game = games.create_game(name, weekly(first, ZONE))
    for i in range(players):
        games.add_player(game, f"Player {i + 1:04d}", f"player{i + 1}@example.org",
                         language="de" if i % 10 == 9 else "en", invite=False)
    games.start_game(game, seed=seed)
    for number in range(1, open_round):
        round_ = game.open_round
        if number == open_round - 1:
            for player in game.active_players:
                tips = ", ".join(f"{rng.choice(LOCATIONS)} {g.code}" for g in rng.sample(GEMS, 6))
                turns.submit_turn(player, f"QUESTION {rng.choice('ABCDEFG')} red\nTIP {tips}",
                                  channel="web")
        resolve_round(game, now=round_.deadline, number=number)
    if game.open_round is None or game.open_round.number != open_round:
        raise SystemExit("the game set-up went wrong: no open round")
    return game


def players_of(game: Game) -> list[Player]:
    """The game's active players, by id."""
    return sorted(game.active_players, key=lambda p: p.id)
