"""Running the jobs, for ``vpsleuth scheduler`` (alone) and ``vpsleuth serve`` (web + jobs).

APScheduler 3 runs the jobs declared in vpsleuth/jobs/__init__.py every tick
(SCHEDULER_TICK_SECONDS). Jobs are registered idempotently under their stable
ids. A tick missed while the process was suspended or busy is caught up once
(coalesce, no misfire limit); whether a round is due never depends on the timer.
Several schedulers against one PostgreSQL database are safe and divide the work:
every job claims it with conditional updates or unique constraints, and passes
over what another scheduler has locked (services/claims.py). On SQLite one
scheduler works at a time (SoleScheduler, below); a second one says so and waits.

Beside the jobs, when IMAP_HOST is set and IMAP_IDLE is on, both commands run
the IMAP watcher (vpsleuth/mail/inbound/watch.py) in a thread of its own, so a
reply is processed as it arrives rather than at the next ``poll-imap`` tick;
the mailbox lease lets one watcher of all processes work at a time.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import wraps

from apscheduler.events import EVENT_SCHEDULER_SHUTDOWN
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

from .. import jobs
from ..extensions import db
from ..mail.inbound.watch import Watcher, start_thread
from ..services.leases import Lease, current_holder, new_holder

log = logging.getLogger("vpsleuth.scheduler")  # the name its log lines have always carried
JOB_DEFAULTS = {"coalesce": True, "misfire_grace_time": None, "max_instances": 1}


class SoleScheduler:
    """The one scheduler a SQLite database allows: a lease (services/leases.py).

    SQLite writes one transaction at a time and cannot pass over rows another
    scheduler holds, so a second scheduler there could only queue behind the first.
    It says so in its log and waits: its jobs do nothing until the lease is free,
    at once when the first one stops, SCHEDULER_LEASE_SECONDS after it died. On
    PostgreSQL every scheduler works and they divide the work (services/claims.py).
    """

    NAME = "sqlite-scheduler"
    RETRY_SECONDS = 1.0  # the jobs of one tick ask together: one try answers them all

    def __init__(self, app: Flask):
        self.app = app
        with app.app_context():
            sqlite = db.engine.dialect.name == "sqlite"
        seconds = float(app.config.get("SCHEDULER_LEASE_SECONDS") or 90)
        self.lease = Lease(self.NAME, new_holder("scheduler"), seconds) if sqlite else None
        self.waiting = False
        self._tried = -self.RETRY_SECONDS
        self._lock = threading.Lock()

    def held(self) -> bool:
        """May this scheduler's jobs run now? Always on PostgreSQL; on SQLite, the lease."""
        if self.lease is None:
            return True
        with self._lock:
            if self.waiting and time.monotonic() - self._tried < self.RETRY_SECONDS:
                return False
            self._tried = time.monotonic()
            with self.app.app_context():
                held = self.lease.keep()
                holder = "" if held else current_holder(self.NAME)
            if not held and not self.waiting:
                log.warning("another scheduler works on this SQLite database (%s); this one "
                            "waits, and takes over when that one stops", holder or "unknown")
            elif held and self.waiting:
                log.info("this scheduler takes over the SQLite database")
            self.waiting = not held
            return held

    def release(self) -> None:
        """Give the lease back (on shutdown), so that a waiting scheduler takes over at once."""
        if self.lease is not None:
            with self.app.app_context():
                self.lease.release()

    def guard(self, func: Callable) -> Callable:
        """``func`` as a job that does nothing while another scheduler holds the database."""
        @wraps(func)
        def job(app: Flask, now: datetime | None = None):
            return func(app, now) if self.held() else None
        return job


def build_scheduler(app: Flask, *, background: bool) -> BaseScheduler:
    """A scheduler with every job registered (not started)."""
    cls = BackgroundScheduler if background else BlockingScheduler
    scheduler = cls(timezone=UTC, job_defaults=JOB_DEFAULTS,
                    executors={"default": ThreadPoolExecutor(max_workers=len(jobs.JOBS))})
    sole = SoleScheduler(app)
    register_jobs(scheduler, app, sole=sole)
    scheduler.add_listener(lambda event: sole.release(), EVENT_SCHEDULER_SHUTDOWN)
    return scheduler


def register_jobs(scheduler: BaseScheduler, app: Flask, start_at: datetime | None = None,
                  sole: SoleScheduler | None = None) -> list[str]:
    """Add every declared job under its id; idempotent, and drops jobs no longer declared.

    Jobs first run at ``start_at`` (default: at once), then every tick; with
    ``sole``, only while it holds the database.
    """
    declared = {job.id for job in jobs.JOBS}
    for existing in scheduler.get_jobs():
        if existing.id not in declared:
            scheduler.remove_job(existing.id)
    for job in jobs.JOBS:
        if scheduler.get_job(job.id) is not None:
            scheduler.remove_job(job.id)
        func = job.func if sole is None else sole.guard(job.func)
        scheduler.add_job(func, "interval", seconds=job.seconds(app), args=[app],
                          id=job.id, name=job.description,
                          next_run_time=start_at or datetime.now(UTC), **JOB_DEFAULTS)
    return [job.id for job in scheduler.get_jobs()]


def start_background(app: Flask) -> BackgroundScheduler:
    """Start the jobs in a background thread (for ``vpsleuth serve``)."""
    scheduler = build_scheduler(app, background=True)
    scheduler.start()
    return scheduler


def start_watcher(app: Flask) -> Watcher | None:
    """The IMAP watcher in a thread, if IMAP_HOST is set and IMAP_IDLE is on; else None."""
    if not (app.config.get("IMAP_HOST") and app.config.get("IMAP_IDLE")):
        return None
    return start_thread(app)


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """Turn SIGTERM into SystemExit, so that ``kill`` shuts down as cleanly as Ctrl-C."""
    def stop(signum, frame):
        raise SystemExit(0)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def setup_logging() -> None:
    """Log INFO and up to standard error, unless logging is set up already; APScheduler quiet."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # Upgrading SQLite's schema first configures logging from alembic.ini (root: WARN);
    # what the jobs and the IMAP watcher say must show all the same.
    logging.getLogger("vpsleuth").setLevel(logging.INFO)
    # APScheduler logs every run (and every run skipped while the last one still
    # works); our jobs log what they did. Job errors still show.
    logging.getLogger("apscheduler").setLevel(logging.ERROR)
