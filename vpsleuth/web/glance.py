"""The games list at a glance, and the German words of the glance and schedule pages.

Round, deadline and time left in the viewer's zone, whether the viewer's turn
is in, and how many of the players have sent one (services.glance).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..i18n import translate
from ..models import Game, Player, Round
from ..services import glance, outcome
from ..services.access import Viewer
from .dates import moment_text
from .session import current_language


@dataclass(frozen=True)
class GameCard:
    """One game of the list: what services.glance knows, and its deadline as shown."""

    at: glance.GameAtAGlance
    deadline: Any  # player.common.Deadline, or None without an open round
    outcome: outcome.Outcome | None = None  # a finished game's result, for the viewer


@dataclass(frozen=True)
class TurnRow:
    """One player of the overview's "who has sent a turn": a name and a time, no more."""

    name: str
    me: bool
    sent: bool
    iso: str | None  # UTC, for <time datetime> and the browser's conversion
    text: str | None  # in the viewer's (or the game's) zone


def game_cards(viewer: Viewer) -> list[GameCard]:
    """The viewer's games, newest first, each with its open round's deadline, or the
    result of a finished one."""
    # Imported here: the players' blueprint imports this module for its overview.
    from .player.common import deadline_of

    at = glance.games_at_a_glance(viewer)
    results = outcome.outcomes([g.game for g in at], {g.game.id: g.player for g in at},
                               current_language())
    return [GameCard(g, deadline_of(g.round, g.game, g.player) if g.round else None,
                     results.get(g.game.id)) for g in at]


def turn_rows(round_: Round, game: Game, viewer: Player | None) -> list[TurnRow]:
    """Every active player of the open round: sent or not, and when, in the viewer's zone."""
    from .player.common import zone_of

    zone, lang = zone_of(game, viewer), current_language()
    bot = translate(lang, "bot")  # a computer player is marked as in the reports
    return [TurnRow(f"{row.player.name} ({bot})" if row.player.is_bot else row.player.name,
                    viewer is not None and row.player.id == viewer.id,
                    row.sent,
                    row.received_at.strftime("%Y-%m-%dT%H:%M:%SZ") if row.received_at else None,
                    moment_text(row.received_at, zone, lang) if row.received_at else None)
            for row in glance.turns_in(round_)]
