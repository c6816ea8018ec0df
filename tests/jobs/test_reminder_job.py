"""Reminders: 24 h and 4 h before the deadline, once each, only to players who need one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, ReminderSent
from vpsleuth.rules.schedule import explicit, weekly
from vpsleuth.services import games, gm, reminders, turns

D = datetime(2026, 12, 6, 19, 0, tzinfo=UTC)


def sent() -> set[tuple[str, int]]:
    db.session.expire_all()
    rows = db.session.scalars(select(ReminderSent))
    return {(r.player_id, r.hours_before) for r in rows}


def test_the_due_lead_time_is_the_smallest_that_has_come():
    hours = [24, 4]
    assert reminders.due_lead_time(D, hours, D - timedelta(hours=24, seconds=1)) is None
    assert reminders.due_lead_time(D, hours, D - timedelta(hours=24)) == 24
    assert reminders.due_lead_time(D, hours, D - timedelta(hours=4, seconds=1)) == 24
    assert reminders.due_lead_time(D, hours, D - timedelta(hours=4)) == 4
    assert reminders.due_lead_time(D, hours, D - timedelta(seconds=1)) == 4
    assert reminders.due_lead_time(D, hours, D) is None
    assert reminders.due_lead_time(D, [], D - timedelta(hours=1)) is None


def test_a_player_without_a_turn_is_reminded_24_and_4_hours_before_once_each(
        app, sink, new_game, now):
    game = new_game()
    ada, bob, cyd = game.players
    assert game.round(1).deadline == D
    turns.submit_turn(bob, "TIP A RD1", channel="cli", now=now)
    cyd.wants_reminders = False
    db.session.commit()
    assert jobs.send_reminders(app, D - timedelta(hours=24, seconds=1)) == 0
    assert jobs.send_reminders(app, D - timedelta(hours=24)) == 1
    assert jobs.send_reminders(app, D - timedelta(hours=23)) == 0
    assert jobs.send_reminders(app, D - timedelta(hours=4)) == 1
    assert jobs.send_reminders(app, D - timedelta(minutes=1)) == 0
    assert jobs.send_reminders(app, D + timedelta(minutes=1)) == 0
    assert sent() == {(ada.id, 24), (ada.id, 4)}
    jobs.send_outbox(app, D)
    subjects = sorted(m["Subject"] for m in sink.to(ada.email)
                      if "left" in m["Subject"])
    assert subjects == ["Winter: 24 hours left for round 1", "Winter: 4 hours left for round 1"]
    assert not [m for m in sink.to(bob.email) + sink.to(cyd.email) if "left" in m["Subject"]]


def test_a_turn_sent_after_the_first_reminder_stops_the_second(app, new_game, now):
    game = new_game(players=("Ada",))
    (ada,) = game.players
    jobs.send_reminders(app, D - timedelta(hours=24))
    turns.submit_turn(ada, "QUESTION B green", channel="cli", now=D - timedelta(hours=5))
    jobs.send_reminders(app, D - timedelta(hours=4))
    assert sent() == {(ada.id, 24)}


def test_a_round_that_opens_three_hours_before_its_deadline_gets_only_the_4_hour_reminder(
        app, new_game, now):
    game = new_game(schedule=explicit([now + timedelta(hours=3)], "UTC"))
    assert jobs.send_reminders(app, now) == 3
    assert jobs.send_reminders(app, now + timedelta(hours=1)) == 0
    assert {hours for _, hours in sent()} == {4}
    mail = db.session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "reminder"))
    assert {m.subject for m in mail} == {"Winter: 3 hours left for round 1"}
    assert game.reminders == [24, 4]


def test_reminders_in_the_week_summer_time_ends_come_24_real_hours_before(app, sink, new_game):
    start = datetime(2026, 10, 20, 12, 0, tzinfo=UTC)
    game = new_game(schedule=weekly("2026-10-25 20:00", "Europe/Berlin"), started_at=start)
    deadline = game.round(1).deadline
    assert deadline == datetime(2026, 10, 25, 19, 0, tzinfo=UTC)  # 20:00 CET
    # 24 real hours before: Saturday 21:00 CEST, 19:00 UTC.
    assert jobs.send_reminders(app, datetime(2026, 10, 24, 18, 59, 59, tzinfo=UTC)) == 0
    assert jobs.send_reminders(app, datetime(2026, 10, 24, 19, 0, tzinfo=UTC)) == 3
    jobs.send_outbox(app, deadline)
    ada = game.players[0]
    (reminder,) = [m for m in sink.to(ada.email) if "left" in m["Subject"]]
    assert "Sun 25 Oct 2026, 20:00 CET" in reminder.get_body(("plain",)).get_content()


def test_withdrawn_players_and_paused_games_get_no_reminders(app, new_game, now):
    running = new_game("Running")
    paused = new_game("Paused")
    games.withdraw_player(running.players[1], now=now)
    gm.pause_game(paused, actor="gm", now=now)
    jobs.send_reminders(app, D - timedelta(hours=24))
    ada, _, cyd = running.players
    assert sent() == {(ada.id, 24), (cyd.id, 24)}


def test_a_reminder_another_scheduler_sent_meanwhile_is_not_sent_again(app, new_game, now):
    game = new_game(players=("Ada",))
    round_, (ada,) = game.round(1), game.players
    at = D - timedelta(hours=24)
    db.session.add(ReminderSent(round_id=round_.id, player_id=ada.id, hours_before=24,
                                sent_at=at))
    db.session.commit()
    before = db.session.scalar(select(db.func.count()).select_from(OutboxMessage))
    assert reminders._queue(round_, [ada], 24, at) == []  # lost the race: no mail
    after = db.session.scalar(select(db.func.count()).select_from(OutboxMessage))
    assert after == before
    assert sent() == {(ada.id, 24)}


def test_a_games_own_lead_times_are_used(app, new_game, now):
    new_game(reminder_hours=[48])
    assert jobs.send_reminders(app, D - timedelta(hours=48)) == 3
    assert jobs.send_reminders(app, D - timedelta(hours=4)) == 0
    assert {hours for _, hours in sent()} == {48}


def test_no_reminder_goes_out_for_a_round_resolved_meanwhile(app, new_game, now):
    from vpsleuth.services import resolution

    game = new_game(players=("Ada",))
    round_, (ada,) = game.round(1), game.players
    resolution.resolve_round(game, now=D - timedelta(hours=1), number=1)  # by another process
    before = db.session.scalar(select(db.func.count()).select_from(OutboxMessage))
    assert reminders._queue(round_, [ada], 4, D - timedelta(hours=1)) == []
    assert db.session.scalar(select(db.func.count()).select_from(OutboxMessage)) == before
    assert sent() == set()
