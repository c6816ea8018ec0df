"""What every player page needs: the game the viewer may see, and deadlines to show."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import abort

from ...i18n import translate
from ...models import Game, Player, Round, utcnow
from ...schedule import format_deadline
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
                    text=format_deadline(moment, zone_of(game, player), lang),
                    left=time_left(moment, now, lang), passed=now >= moment,
                    zone=player.timezone if player is not None else None)


def time_left(deadline: datetime, now: datetime, lang: str = "en") -> str:
    """``2 days 3 hours left``, ``45 minutes left``, or that the deadline has passed."""
    seconds = int((deadline - now).total_seconds())
    if seconds <= 0:
        return translate(lang, "the deadline has passed")
    minutes = max(1, seconds // 60)
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    units = (("day", "days", days), ("hour", "hours", hours))
    if days == 0 and hours < 6:
        units = (("hour", "hours", hours), ("minute", "minutes", mins))
    parts = [f"{n} {translate(lang, one if n == 1 else many)}" for one, many, n in units if n]
    return translate(lang, "{} left").format(" ".join(parts))
