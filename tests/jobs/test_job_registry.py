"""The jobs are data with stable ids, registered idempotently, and each only calls services."""

from __future__ import annotations

import time
from datetime import timedelta

from apscheduler.schedulers.background import BackgroundScheduler

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.jobs import scheduler
from vpsleuth.mail.inbound import imap
from vpsleuth.models import SchedulerState
from vpsleuth.services import heartbeat

IDS = ["resolve-due-rounds", "tell-stories", "release-final-reports", "send-reminders",
       "send-board-digests", "send-outbox", "send-notices", "poll-imap",
       "process-left-over-mail", "heartbeat",
       "forget-old", "play-bots", "retention"]


def test_the_jobs_have_stable_unique_ids():
    assert [job.id for job in jobs.JOBS] == IDS


def test_registering_twice_keeps_one_of_each_job_and_drops_undeclared_ones(app):
    sched = BackgroundScheduler()
    sched.add_job(print, "interval", seconds=60, id="retired-job")
    assert scheduler.register_jobs(sched, app) == IDS
    assert scheduler.register_jobs(sched, app) == IDS
    sched.start(paused=True)
    try:
        assert scheduler.register_jobs(sched, app) == IDS
        for job in sched.get_jobs():
            assert (job.coalesce, job.misfire_grace_time, job.max_instances) == (True, None, 1)
        ticks = {job.id: job.trigger.interval for job in sched.get_jobs()}
        assert ticks["resolve-due-rounds"] == timedelta(seconds=30)
        assert ticks["poll-imap"] == timedelta(seconds=60)
        # Its own interval: a finished game's story is told seconds after the end.
        assert ticks["tell-stories"] == timedelta(seconds=app.config["STORY_POLL_SECONDS"])
    finally:
        sched.shutdown(wait=False)


def test_the_imap_job_does_nothing_without_an_imap_host(app, now):
    app.config.pop("IMAP_HOST", None)
    assert jobs.poll_imap(app, now) is None


def test_the_imap_job_calls_the_inbound_poller_when_an_imap_host_is_set(app, now, monkeypatch):
    calls = []
    monkeypatch.setattr(imap, "poll_imap", lambda a: calls.append(a) or 2)
    monkeypatch.setitem(app.config, "IMAP_HOST", "imap.sleuth.test")
    assert jobs.poll_imap(app, now) == 2
    assert calls == [app]


def test_one_failing_job_does_not_stop_the_others(app, now, monkeypatch):
    def broken(app, now=None):
        raise RuntimeError("boom")

    declared = tuple(jobs.Job(j.id, broken if j.id == "send-outbox" else j.func, j.description)
                     for j in jobs.JOBS)
    monkeypatch.setattr(jobs, "JOBS", declared)
    results = jobs.run_all(app, now)
    assert results["send-outbox"] is None
    assert results["heartbeat"] == now
    assert heartbeat.last_heartbeat() == now


def test_a_running_background_scheduler_beats_every_tick(app):
    app.config["SCHEDULER_TICK_SECONDS"] = 0.2
    sched = scheduler.start_background(app)
    try:
        beats = set()
        for _ in range(100):  # up to 10 s
            db.session.expire_all()
            row = db.session.get(SchedulerState, "heartbeat")
            if row is not None:
                beats.add(row.value)
            if len(beats) >= 2:
                break
            time.sleep(0.1)
    finally:
        sched.shutdown(wait=True)
    assert len(beats) >= 2


def test_the_outage_grace_is_far_longer_than_a_tick(app):
    tick = timedelta(seconds=app.config["SCHEDULER_TICK_SECONDS"])
    grace = timedelta(minutes=app.config["OUTAGE_GRACE_MINUTES"])
    assert grace >= 10 * tick

