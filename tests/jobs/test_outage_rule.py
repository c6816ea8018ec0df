"""The outage rule: a deadline that passed while the service was down is not resolved blind."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, OutboxMessage, SchedulerState
from vpsleuth.services import heartbeat, resolution

GRACE = timedelta(minutes=10)


def fresh(game):
    db.session.expire_all()
    return game.round(1)


def moved_mails() -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "deadline_moved")))


def test_a_deadline_missed_during_an_outage_moves_on_by_the_outage(app, sink, new_game):
    game = new_game()
    deadline = game.round(1).deadline
    last_beat = deadline - timedelta(hours=1)
    now = deadline + timedelta(hours=2)
    moved = resolution.apply_outage_rule(now, last_beat, grace=GRACE)
    assert [r.number for r in moved] == [1]
    round_ = fresh(game)
    assert (round_.state, round_.deadline) == ("open", deadline + timedelta(hours=3))
    (entry,) = db.session.scalars(select(AuditEntry).where(
        AuditEntry.action == "outage_deadline_moved"))
    assert entry.actor == "system" and json.loads(entry.detail)["round"] == 1
    assert sorted(m.to_addr for m in moved_mails()) == sorted(p.email for p in game.players)
    assert "service was down" in moved_mails()[0].body_text
    assert resolution.resolve_due(now) == []
    jobs.send_outbox(app, now)
    (mail,) = [m for m in sink.to("ada@example.org") if "has moved" in m["Subject"]]
    assert "Round 1 is now open until" in mail.get_body(("plain",)).get_content()


def test_the_moved_round_resolves_at_its_new_deadline_or_at_once_by_the_gm(app, new_game):
    game, other = new_game(), new_game("Other")
    deadline = game.round(1).deadline
    now = deadline + timedelta(hours=2)
    resolution.apply_outage_rule(now, deadline - timedelta(hours=1), grace=GRACE)
    assert resolution.resolve_round(other, now=now, actor="gm", number=1) is not None
    assert [r.number for r in resolution.resolve_due(deadline + timedelta(hours=3))] == [1]
    assert fresh(game).state == "resolved"


def test_a_first_start_without_any_heartbeat_counts_as_no_outage(app, new_game):
    game = new_game()
    deadline = game.round(1).deadline
    assert heartbeat.last_heartbeat() is None
    assert resolution.apply_outage_rule(deadline + timedelta(days=2), None, grace=GRACE) == []
    assert jobs.resolve_rounds(app, deadline + timedelta(days=2)) == [(game.id, 1)]
    assert moved_mails() == []


def test_a_restart_shorter_than_the_grace_resolves_as_usual(app, new_game):
    game = new_game()
    deadline = game.round(1).deadline
    last_beat = deadline - timedelta(minutes=5)
    assert resolution.apply_outage_rule(last_beat + GRACE, last_beat, grace=GRACE) == []
    assert fresh(game).deadline == deadline


def test_a_deadline_that_passed_while_the_scheduler_still_ran_is_not_moved(app, new_game):
    game = new_game()
    deadline = game.round(1).deadline
    last_beat = deadline + timedelta(seconds=30)  # up at the deadline, then down for long
    assert resolution.apply_outage_rule(deadline + timedelta(hours=5), last_beat,
                                        grace=GRACE) == []
    assert fresh(game).deadline == deadline


def test_the_rule_moves_a_deadline_only_once_however_often_it_is_applied(app, new_game):
    game = new_game()
    deadline = game.round(1).deadline
    last_beat, now = deadline - timedelta(hours=1), deadline + timedelta(hours=1)
    assert len(resolution.apply_outage_rule(now, last_beat, grace=GRACE)) == 1
    assert resolution.apply_outage_rule(now, last_beat, grace=GRACE) == []
    assert fresh(game).deadline == deadline + timedelta(hours=2)
    assert len(moved_mails()) == 3


def test_the_grace_comes_from_the_configuration(app, new_game):
    game = new_game()
    deadline = game.round(1).deadline
    app.config["OUTAGE_GRACE_MINUTES"] = 30
    last_beat = deadline - timedelta(minutes=1)
    assert resolution.apply_outage_rule(deadline + timedelta(minutes=20), last_beat) == []
    assert len(resolution.apply_outage_rule(deadline + timedelta(minutes=40), last_beat)) == 1


def test_after_an_outage_the_jobs_move_the_deadline_whichever_runs_first(app, new_game):
    first, second = new_game("First"), new_game("Second")
    deadline = first.round(1).deadline
    jobs.beat(app, deadline - timedelta(hours=1))
    now = deadline + timedelta(hours=1)
    # The heartbeat job first: it applies the rule before refreshing the heartbeat.
    jobs.beat(app, now)
    assert jobs.resolve_rounds(app, now) == []
    assert {fresh(g).deadline for g in (first, second)} == {deadline + timedelta(hours=2)}

    # The resolve job first, after a second outage.
    later = deadline + timedelta(hours=2, minutes=30)
    assert jobs.resolve_rounds(app, later) == []
    moved_again = deadline + timedelta(hours=3, minutes=30)  # by the 1 h 30 since the beat
    assert {fresh(g).deadline for g in (first, second)} == {moved_again}
    jobs.beat(app, moved_again - timedelta(minutes=5))  # up again, beating before it
    assert sorted(jobs.resolve_rounds(app, moved_again)) == [(first.id, 1), (second.id, 1)]


def test_the_heartbeat_records_iso_time_and_never_goes_back(app, now):
    jobs.beat(app, now)
    jobs.beat(app, now + timedelta(seconds=30))
    jobs.beat(app, now)  # a second scheduler a moment behind
    db.session.expire_all()
    row = db.session.get(SchedulerState, "heartbeat")
    assert row.value == (now + timedelta(seconds=30)).isoformat()
    assert heartbeat.last_heartbeat() == now + timedelta(seconds=30)
