"""Several schedulers divide the work (PostgreSQL), or one works and the other waits (SQLite).

On PostgreSQL another scheduler's claim is played by a second connection that
holds a row lock, as a scheduler in the middle of resolving that round (or sending
that mail) does: the jobs here must pass the locked row over at once, do the rest,
and do the locked one once it is free. The jobs run in a thread with a bounded
join, so a job that waited for the lock fails the test instead of hanging it.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
from smtp_sink import DATABASES
from sqlalchemy import create_engine, func, select, text

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.jobs.scheduler import SoleScheduler
from vpsleuth.models import AuditEntry, OutboxMessage, ReminderSent, Round
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import reminders, resolution

POSTGRES = [d for d in DATABASES if d == "postgresql"]
WAIT = 30  # seconds a job may take here; one that waits for a lock takes forever
BERLIN_SUNDAY = datetime(2026, 12, 6, 19, 0, tzinfo=UTC)  # 20:00 in Berlin


@contextmanager
def held(app, table: str, row_id: int) -> Iterator[None]:
    """Another scheduler's transaction, holding the lock on one row until the block ends."""
    engine = create_engine(app.config["SQLALCHEMY_DATABASE_URI"])
    try:
        with engine.connect() as conn:
            conn.execute(text(f'SELECT id FROM "{table}" WHERE id = :id FOR UPDATE'),
                         {"id": row_id})
            yield
            conn.rollback()
    finally:
        engine.dispose()


def at_once(app, job: Callable[[], object]) -> object:
    """Run ``job`` in a thread of its own with an app context; it must finish within WAIT."""
    result: list[object] = []

    def run() -> None:
        with app.app_context():
            try:
                result.append(job())
            finally:
                db.session.remove()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(WAIT)
    assert not thread.is_alive(), "the job waited for a row another scheduler holds"
    assert result, "the job failed (see the captured log)"
    return result[0]


def resolutions() -> Counter:
    db.session.expire_all()
    return Counter(e.game_id for e in db.session.scalars(
        select(AuditEntry).where(AuditEntry.action == "resolve_round")))


@pytest.mark.live_db
@pytest.mark.parametrize("app", POSTGRES, indirect=True)
def test_a_round_another_scheduler_is_resolving_is_passed_over_not_waited_for(app, new_game):
    schedule = weekly("2026-12-06 20:00", "Europe/Berlin")
    games = [new_game(f"Game {n}", schedule=schedule) for n in range(4)]
    busy = games[1].round(1).id
    after = BERLIN_SUNDAY + timedelta(minutes=1)
    with held(app, "round", busy):
        done = at_once(app, lambda: [r.game_id for r in resolution.resolve_due(after)])
        assert sorted(done) == sorted(g.id for g in games if g is not games[1])
        db.session.expire_all()
        assert db.session.get(Round, busy).state == "open"
    # Free again (that scheduler gave up): the next tick resolves it, and only it.
    assert [r.id for r in resolution.resolve_due(after)] == [busy]
    assert resolution.resolve_due(after) == []
    assert resolutions() == {g.id: 1 for g in games}


@pytest.mark.live_db
@pytest.mark.parametrize("app", POSTGRES, indirect=True)
def test_a_mail_another_scheduler_is_claiming_is_passed_over_and_sent_once_later(
        app, new_game, sink):
    new_game(players=("Ada", "Bob", "Cyd", "Dan"))  # four invitations and round mails
    ids = db.session.scalars(select(OutboxMessage.id).order_by(OutboxMessage.id)).all()
    assert len(ids) >= 8
    busy = ids[2]
    with held(app, "outbox_message", busy):
        assert at_once(app, lambda: jobs.send_outbox(app)) == len(ids) - 1
        db.session.expire_all()
        assert db.session.get(OutboxMessage, busy).status == "pending"
    assert jobs.send_outbox(app) == 1
    assert jobs.send_outbox(app) == 0
    received = Counter(sink.message_ids())
    db.session.expire_all()
    assert received == Counter(m.message_id for m in db.session.scalars(select(OutboxMessage)))
    assert set(received.values()) == {1}


@pytest.mark.live_db
@pytest.mark.parametrize("app", POSTGRES, indirect=True)
def test_the_reminders_of_a_locked_round_wait_and_the_other_rounds_get_theirs(app, new_game):
    first, second = new_game("First"), new_game("Second")
    day_before = BERLIN_SUNDAY - timedelta(hours=24)
    with held(app, "round", first.round(1).id):
        queued = at_once(app, lambda: [(r.round_id, r.player_id)
                                       for r in reminders.send_reminders(day_before)])
        assert {round_id for round_id, _ in queued} == {second.round(1).id}
        assert len(queued) == 3
    later = [(r.round_id, r.player_id) for r in reminders.send_reminders(day_before)]
    assert {round_id for round_id, _ in later} == {first.round(1).id}
    assert reminders.send_reminders(day_before) == []
    db.session.expire_all()
    assert db.session.scalar(select(func.count()).select_from(ReminderSent)) == 6


@pytest.mark.live_db
def test_on_sqlite_a_second_scheduler_says_it_waits_and_takes_over_when_the_first_stops(
        app, caplog):
    first, second = SoleScheduler(app), SoleScheduler(app)
    sqlite = app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
    caplog.set_level(logging.INFO, logger="vpsleuth.scheduler")
    assert first.held()
    assert second.held() is not sqlite  # on PostgreSQL both work: they divide the work
    if not sqlite:
        assert first.lease is None and second.lease is None
        return
    (waits,) = [r.getMessage() for r in caplog.records if "waits" in r.getMessage()]
    assert "another scheduler works on this SQLite database (scheduler@" in waits
    assert second.guard(lambda app, now: "ran")(app) is None  # its jobs do nothing
    assert first.guard(lambda app, now: "ran")(app) == "ran"
    first.release()  # the first stops cleanly
    second._tried -= SoleScheduler.RETRY_SECONDS  # its next tick
    assert second.held()
    assert any("takes over" in r.getMessage() for r in caplog.records)
    second.release()


@pytest.mark.live_db
@pytest.mark.parametrize("app", [d for d in DATABASES if d == "sqlite"], indirect=True)
def test_on_sqlite_a_scheduler_that_died_is_taken_over_once_its_lease_runs_out(app):
    app.config["SCHEDULER_LEASE_SECONDS"] = 60
    died, waiting = SoleScheduler(app), SoleScheduler(app)
    assert died.held()  # then it is killed: it never renews nor releases
    assert not waiting.held()
    past = datetime.now(UTC) + timedelta(seconds=61)
    with app.app_context():
        assert waiting.lease.claim(past)  # a minute later by the database's clock


@pytest.mark.parametrize("app", [d for d in DATABASES if d == "sqlite"], indirect=True)
def test_once_on_sqlite_refuses_while_another_scheduler_works(app, runner):
    other = SoleScheduler(app)
    assert other.held()
    result = runner.invoke(args=["scheduler", "--once"])
    assert result.exit_code == 1
    assert "another scheduler works on this SQLite database" in result.output
    assert "resolve-due-rounds" not in result.output  # no job ran
    other.release()
    result = runner.invoke(args=["scheduler", "--once"])
    assert result.exit_code == 0, result.output
    assert "resolve-due-rounds:" in result.output
