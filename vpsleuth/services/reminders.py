"""Reminders: a mail to each active player with no turn yet, some hours before a deadline.

Each game says when (Game.reminders, default 24 and 4 hours before). Each
(round, player, lead time) is sent at most once, by any number of schedulers:
the ReminderSent row is inserted in the same transaction as the mail, and its
unique constraint lets only one of them commit. A player away (services/absence.py)
gets none while the absence lasts.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import Game, Player, ReminderSent, Round, StandingQuestion, StandingTip, utcnow
from . import absence, events

log = logging.getLogger(__name__)


def due_lead_time(deadline: datetime, hours: list[int], now: datetime) -> int | None:
    """The lead time (hours before ``deadline``) whose reminder is due at ``now``.

    The smallest lead time that has come: when the 4-hour reminder is due, the
    24-hour one is too late and is never sent (e.g. a round that opened three
    hours before its deadline). None once the deadline has come.
    """
    if now >= deadline:
        return None
    come = [h for h in hours if deadline - timedelta(hours=h) <= now]
    return min(come) if come else None


def players_without_turn(round_: Round) -> list[Player]:
    """Active players with neither a question nor a tip standing in the round."""
    with_turn = set(db.session.scalars(select(StandingQuestion.player_id).where(
        StandingQuestion.round_id == round_.id)))
    with_turn |= set(db.session.scalars(select(StandingTip.player_id).where(
        StandingTip.round_id == round_.id)))
    return [p for p in round_.game.active_players if p.id not in with_turn]


def send_reminders(now: datetime | None = None) -> list[ReminderSent]:
    """Queue every reminder that is due at ``now``; returns the ones this call sent."""
    now = now or utcnow()
    rounds = db.session.scalars(select(Round).join(Game).where(
        Round.state == "open", Game.state == "running", Round.deadline > now)
        .order_by(Round.id)).all()
    sent = []
    for round_ in rounds:
        hours = due_lead_time(round_.deadline, round_.game.reminders, now)
        if hours is None:
            continue
        done = set(db.session.scalars(select(ReminderSent.player_id).where(
            ReminderSent.round_id == round_.id, ReminderSent.hours_before == hours)))
        away = absence.away_in(round_.game, now)  # no reminders while a player is away
        for player in players_without_turn(round_):
            if player.wants_reminders and player.id not in done and player.id not in away:
                row = _remind(round_, player, hours, now)
                if row is not None:
                    sent.append(row)
    return sent


def _remind(round_: Round, player: Player, hours: int, now: datetime) -> ReminderSent | None:
    """Insert the ReminderSent row and queue the mail in one transaction."""
    left = max(1, round((round_.deadline - now) / timedelta(hours=1)))
    row = ReminderSent(round_id=round_.id, player_id=player.id, hours_before=hours, sent_at=now)
    try:
        db.session.add(row)
        db.session.flush()  # the unique constraint decides who sends it
        # A round resolved meanwhile by another process needs no reminder (the
        # shared lock waits for a resolution under way to commit).
        state = db.session.scalar(select(Round.state).where(Round.id == round_.id)
                                  .with_for_update(read=True))
        if state != "open":
            db.session.rollback()
            return None
        events.reminder_due.send(player, round_=round_, hours=min(hours, left))
        db.session.commit()
    except IntegrityError:
        db.session.rollback()  # another scheduler sent it: nothing of ours stays
        return None
    log.info("reminded player %d of round %d of game %d (%d h)", player.id, round_.number,
             round_.game_id, hours)
    return row
