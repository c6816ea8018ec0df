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
from . import absence, claims, events

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
    round_ids = db.session.scalars(select(Round.id).join(Game).where(
        Round.state == "open", Game.state == "running", Round.deadline > now)
        .order_by(Round.id)).all()
    sent = []
    for round_id in round_ids:
        sent += _remind_round(round_id, now)
    return sent


def _remind_round(round_id: int, now: datetime) -> list[ReminderSent]:
    """The reminders of one round that are due at ``now``: to the players still owed one."""
    round_ = db.session.get(Round, round_id)
    hours = None if round_ is None else due_lead_time(round_.deadline, round_.game.reminders,
                                                      now)
    if hours is None:
        return []
    done = set(db.session.scalars(select(ReminderSent.player_id).where(
        ReminderSent.round_id == round_id, ReminderSent.hours_before == hours)))
    away = absence.away_in(round_.game, now)  # no reminders while a player is away
    due = [p for p in players_without_turn(round_)
           if p.wants_reminders and p.id not in done and p.id not in away]
    return _queue(round_, due, hours, now) if due else []


def _queue(round_: Round, players: list[Player], hours: int,
           now: datetime) -> list[ReminderSent]:
    """Lock the round, insert the ReminderSent rows and queue the mails, in one transaction.

    The lock (services/claims.py): on PostgreSQL a round another scheduler is
    reminding, or resolving, is passed over, so several schedulers divide the rounds,
    and the round is not resolved until its reminders are queued. Each ReminderSent
    row's unique constraint is what makes a reminder go once, whatever the database:
    a conflict undoes this round's transaction, and the next tick sends what is missing.
    """
    round_id = round_.id
    if not claims.lock_if_free(Round, round_id, Round.state == "open"):
        db.session.rollback()
        return []
    left = max(1, round((round_.deadline - now) / timedelta(hours=1)))
    rows = [ReminderSent(round_id=round_id, player_id=p.id, hours_before=hours, sent_at=now)
            for p in players]
    try:
        db.session.add_all(rows)
        db.session.flush()  # the unique constraint decides who sends each
        # Resolved meanwhile by another process? (On SQLite the flush holds the write
        # lock, so this reads the committed state; on PostgreSQL the row is ours.)
        if db.session.scalar(select(Round.state).where(Round.id == round_id)) != "open":
            db.session.rollback()
            return []
        for player in players:
            events.reminder_due.send(player, round_=round_, hours=min(hours, left))
        db.session.commit()
    except IntegrityError:
        db.session.rollback()  # another scheduler sent one of them: nothing of ours stays
        return []
    log.info("reminded %d player(s) of round %d of game %d (%d h)", len(rows),
             round_.number, round_.game_id, hours)
    return rows
