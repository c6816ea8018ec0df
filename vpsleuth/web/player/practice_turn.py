"""A practice game's turn page after a turn: the round it just resolved.

In practice the human's turn resolves the round at once (services/practice.py),
so the turn page the save leads to would show only the next, empty round.
Instead it first shows what the round just answered and scored, from the
stored report, with a link to that report.
"""

from __future__ import annotations

from flask import url_for

from ...models import Game
from ...services import reports
from ...services.errors import NotFound
from ...services.reports import RoundReport
from ...services.turns import Submission


def after_turn_url(game: Game, sub: Submission) -> str | None:
    """Where a saved practice turn leads: the turn page showing the round it resolved.

    None when the round is still open (not a practice game, or not resolved).
    """
    if not game.practice or sub.round.state != "resolved":
        return None
    return url_for("player.turn", game_id=game.id, after=sub.round.number) + "#just-resolved"


def resolved_report(game: Game, number: int | None, lang: str) -> RoundReport | None:
    """The report of round ``number`` of a practice game, once it is resolved."""
    if not game.practice or number is None:
        return None
    try:
        return reports.build_report(game, number, lang)
    except NotFound:
        return None
