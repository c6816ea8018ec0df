"""What follows a commit inside the services: bots play, a practice round settles.

The services that open rounds (games, resolution) and take turns (turns) send
an ``after_`` signal once they have committed (services/events.py); this
module answers it with the bots' and practice's work. So those services need
not import bots or practice, which import them in turn (bots send their turns
through turns, practice starts games and resolves rounds): one direction.
Connected in create_app, strongly, once per process whatever the number of apps.
"""

from __future__ import annotations

import logging
from datetime import datetime

from flask import Flask

from ..extensions import db
from ..models import Game, Player, Round
from . import absence, board, events, push, seats
from .bots import play_bots
from .practice import settle

log = logging.getLogger(__name__)


def bots_play(game: Game, *, round_: Round, now: datetime) -> None:
    """Computer players send their turn as a round opens (services/bots.py).

    After the commit, so the round stands whatever they do; should a bot fail,
    the scheduler's play-bots job sends its turn on its next tick.
    """
    if any(p.is_bot for p in game.active_players):
        try:
            play_bots(game, now=now)
        except Exception:  # the round is open and committed; the job tries again
            db.session.rollback()
            log.exception("bots of game %d sent no turn", game.id)


def practice_settles(player: Player, *, game: Game, channel: str, practice: bool,
                     now: datetime) -> None:
    """A practice round resolves once the human's turn is in (the bots' came as it opened)."""
    if practice and channel != "bot":
        settle(game, now=now)


def init_app(app: Flask) -> None:
    """Connect the services' follow-ups to their signals (idempotent, for every app)."""
    events.after_round_opened.connect(bots_play, weak=False)
    events.after_turn_accepted.connect(practice_settles, weak=False)
    # An absence's rows go with the person and come with their data (services/absence.py).
    events.person_leaving.connect(absence.forget, weak=False)
    events.personal_data_asked.connect(absence.export, weak=False)
    # Board posts lose text and name with the person and come with their data.
    events.person_leaving.connect(board.forget, weak=False)
    events.personal_data_asked.connect(board.export, weak=False)
    # A seat handed on: its record goes with the person and comes with their data.
    events.person_leaving.connect(seats.forget, weak=False)
    events.personal_data_asked.connect(seats.export, weak=False)
    # Web Push devices go with the person and come with their data (services/push.py).
    events.person_leaving.connect(push.forget, weak=False)
    events.personal_data_asked.connect(push.export, weak=False)
