"""The games list at a glance, and the German words of the glance and schedule pages.

Round, deadline and time left in the viewer's zone, whether the viewer's turn
is in, and how many of the players have sent one (services.glance).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..services import glance, outcome
from ..services.access import Viewer
from .player.common import deadline_of
from .session import current_language


@dataclass(frozen=True)
class GameCard:
    """One game of the list: what services.glance knows, and its deadline as shown."""

    at: glance.GameAtAGlance
    deadline: Any  # player.common.Deadline, or None without an open round
    outcome: outcome.Outcome | None = None  # a finished game's result, for the viewer


def game_cards(viewer: Viewer) -> list[GameCard]:
    """The viewer's games, newest first, each with its open round's deadline, or the
    result of a finished one."""
    at = glance.games_at_a_glance(viewer)
    results = outcome.outcomes([g.game for g in at], {g.game.id: g.player for g in at},
                               current_language())
    return [GameCard(g, deadline_of(g.round, g.game, g.player) if g.round else None,
                     results.get(g.game.id)) for g in at]
