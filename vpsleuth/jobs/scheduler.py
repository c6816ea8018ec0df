"""Running the jobs, for ``vpsleuth scheduler`` (alone) and ``vpsleuth serve`` (web + jobs).

APScheduler 3 runs the jobs declared in vpsleuth/jobs/__init__.py every tick
(SCHEDULER_TICK_SECONDS). Jobs are registered idempotently under their stable
ids. A tick missed while the process was suspended or busy is caught up once
(coalesce, no misfire limit); whether a round is due never depends on the timer.
Several schedulers against one PostgreSQL database are safe: every job claims
its work with conditional updates or unique constraints.

Beside the jobs, when IMAP_HOST is set and IMAP_IDLE is on, both commands run
the IMAP watcher (vpsleuth/mail/inbound/watch.py) in a thread of its own, so a
reply is processed as it arrives rather than at the next ``poll-imap`` tick;
the mailbox lease lets one watcher of all processes work at a time.
"""

from __future__ import annotations

import logging
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

from .. import jobs
from ..mail.inbound.watch import Watcher, start_thread

log = logging.getLogger("vpsleuth.scheduler")  # the name its log lines have always carried
JOB_DEFAULTS = {"coalesce": True, "misfire_grace_time": None, "max_instances": 1}


def build_scheduler(app: Flask, *, background: bool) -> BaseScheduler:
    """A scheduler with every job registered (not started)."""
    cls = BackgroundScheduler if background else BlockingScheduler
    scheduler = cls(timezone=UTC, job_defaults=JOB_DEFAULTS,
                    executors={"default": ThreadPoolExecutor(max_workers=len(jobs.JOBS))})
    register_jobs(scheduler, app)
    return scheduler


def register_jobs(scheduler: BaseScheduler, app: Flask,
                  start_at: datetime | None = None) -> list[str]:
    """Add every declared job under its id; idempotent, and drops jobs no longer declared.

    Jobs first run at ``start_at`` (default: at once), then every tick.
    """
    declared = {job.id for job in jobs.JOBS}
    for existing in scheduler.get_jobs():
        if existing.id not in declared:
            scheduler.remove_job(existing.id)
    for job in jobs.JOBS:
        if scheduler.get_job(job.id) is not None:
            scheduler.remove_job(job.id)
        scheduler.add_job(job.func, "interval", seconds=job.seconds(app), args=[app],
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
