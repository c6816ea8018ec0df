"""What every player page needs: the game the viewer may see, and deadlines to show."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import abort

from ...i18n.dates import moment_text, time_left
from ...models import Game, Player, Round, utcnow
from ...services import access, games
from ...services.errors import NotFound
from ..session import current_language, current_viewer


def member_game(game_id: int) -> tuple[Game, Player | None]:
    """The game and the viewer's player in it (None for its GM who does not play).

    Someone who neither plays in nor runs the game gets a 404, as for a game
    that does not exist: nobody learns which games there are.
    """
    viewer = current_viewer()
    try:
        game = games.find_game(game_id)
        access.require_member(viewer, game)
    except (NotFound, access.Forbidden):
        abort(404)
    return game, access.player_in(viewer, game)


def player_game(game_id: int) -> tuple[Game, Player]:
    """The game and the viewer's own player row; 404 for anyone who does not play in it."""
    game, player = member_game(game_id)
    if player is None:
        abort(404)
    return game, player


def zone_of(game: Game, player: Player | None) -> str:
    """The time zone to show times in: the player's choice, else the game's."""
    return (player.timezone if player is not None else None) or game.timezone


@dataclass(frozen=True)
class Deadline:
    """A deadline as a page shows it: UTC for the browser, text as fallback."""

    iso: str  # UTC, for <time datetime> and the browser's conversion
    text: str  # in the player's (or game's) time zone
    left: str  # "2 days 3 hours left"
    passed: bool
    zone: str | None  # the player's chosen zone for the browser, None: the browser's own


def deadline_of(round_: Round, game: Game, player: Player | None,
                now: datetime | None = None) -> Deadline:
    """How a round's deadline is shown on the page."""
    now = now or utcnow()
    lang = current_language()
    moment = round_.deadline
    return Deadline(iso=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    text=moment_text(moment, zone_of(game, player), lang),
                    left=time_left(moment, now, lang), passed=now >= moment,
                    zone=player.timezone if player is not None else None)
