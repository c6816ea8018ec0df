"""The GM's page of one game, shown by the game's route and again after a refused action.

Its own module so that routes, lobby and bots each import it, and none of them
imports another route module.
"""

from __future__ import annotations

from flask import render_template

from ...i18n.schedule_words import schedule_text
from ...models import Game
from ...rules.schedule import Schedule
from ...services import reports, seats
from ..session import current_language
from .forms import InviteForm


def report_url(game: Game, number: int) -> str:
    """The players' report page (the players' blueprint owns it; linked by path)."""
    return f"/games/{game.id}/rounds/{number}"


def game_page(game: Game, invite: InviteForm, status: int = 200, **extra):
    """The game's page with ``invite`` as its invitation form, and the HTTP status."""
    schedule = schedule_text(Schedule.from_json(game.schedule), current_language())
    done = [(r.number, report_url(game, r.number)) for r in reports.resolved_rounds(game)]
    return render_template("web/gm/game.html", game=game, invite=invite, schedule=schedule,
                           reports=done, handed=seats.holders_from(game), **extra), status
