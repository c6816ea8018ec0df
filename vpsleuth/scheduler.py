"""Running the jobs: ``vpsleuth scheduler`` (alone) and ``vpsleuth serve`` (web + jobs).

APScheduler 3 runs the jobs declared in vpsleuth/jobs.py every tick
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
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import click
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask, current_app
from flask.cli import with_appcontext

from . import jobs

if TYPE_CHECKING:
    from .mail.inbound.watch import Watcher

log = logging.getLogger(__name__)
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
    from .mail.inbound.watch import start_thread

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


@click.command("scheduler")
@click.option("--once", is_flag=True,
              help="Run every job once and exit (for cron, or to catch up by hand).")
@with_appcontext
def scheduler_command(once: bool) -> None:
    """Run the scheduler in the foreground: resolve rounds, remind, send and fetch mail.

    Run exactly one per installation beside the web server (more are safe, not
    useful); stop it with Ctrl-C or SIGTERM.
    """
    from .cli import ensure_schema

    ensure_schema()
    app = current_app._get_current_object()
    setup_logging()
    if once:
        for job_id, result in jobs.run_all(app).items():
            click.echo(f"{job_id}: {result}")
        return
    # The jobs run in threads of their own and this thread only waits: the SystemExit
    # of SIGTERM (or Ctrl-C) lands in the loop below. Raised inside APScheduler's own
    # loop, it could be caught and logged there, and the scheduler would run on.
    watcher = start_watcher(app)  # first: the poll-imap job leaves the mailbox to it
    scheduler = start_background(app)
    tick = app.config.get("SCHEDULER_TICK_SECONDS")
    click.echo(f"Scheduler running {len(jobs.JOBS)} jobs every {tick} s"
               f"{' and the IMAP watcher' if watcher else ''}; Ctrl-C stops it.")
    with stop_on_sigterm():
        try:
            while scheduler.running:
                time.sleep(1)
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            if watcher is not None:
                watcher.stop()
            if scheduler.running:
                scheduler.shutdown(wait=True)
    click.echo("Scheduler stopped.")


def _first_steps(app, url: str) -> None:
    """On a fresh trial, tell the newcomer how to get in."""
    from .extensions import db
    from .mail.outbox import sending_enabled
    from .models import GameMaster

    with app.app_context():
        if db.session.query(GameMaster.id).first() is None:
            click.echo('No game master yet: run  vpsleuth gm add you@example.org "Your Name"'
                       f"  and sign in at {url}/signin")
        if not sending_enabled():
            click.echo("No mail server configured: mails wait in the outbox; read them "
                       "(and the sign-in links) with  vpsleuth mail outbox")


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--threads", default=4, show_default=True, type=int,
              help="Worker threads of the web server.")
@click.option("--scheduler/--no-scheduler", "with_scheduler", default=True, show_default=True,
              help="Run the scheduler (and the IMAP watcher) in this process too (off when "
                   "`vpsleuth scheduler` runs on its own).")
@with_appcontext
def serve_command(host: str, port: int, threads: int, with_scheduler: bool) -> None:
    """Serve the web pages and API (waitress) and run the scheduler beside them.

    The one command for the embedded defaults: the SQLite schema is brought up
    to date first. Stop it with Ctrl-C or SIGTERM.
    """
    from waitress import create_server

    from .cli import ensure_schema
    from .links import configured, remember_served

    ensure_schema()
    app = current_app._get_current_object()
    setup_logging()
    try:
        server = create_server(app, host=host, port=port, threads=threads, ident="vpsleuth")
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: "
                                   f"{exc.strerror or exc}") from None
    # Links in mails follow this address unless BASE_URL is set (vpsleuth/links.py).
    url = remember_served(app, host, server.effective_port)
    watcher = start_watcher(app) if with_scheduler else None
    scheduler = start_background(app) if with_scheduler else None
    click.echo(f"Serving on {url} "
               f"({'with' if scheduler else 'without'} the scheduler"
               f"{' and the IMAP watcher' if watcher else ''}); Ctrl-C stops it.")
    if configured():
        click.echo(f"Links in mails point to {app.config['BASE_URL']} (BASE_URL).")
    _first_steps(app, url)
    try:
        with stop_on_sigterm():
            server.run()  # returns on Ctrl-C or SIGTERM
    finally:
        if watcher is not None:
            watcher.stop()
        if scheduler is not None:
            scheduler.shutdown(wait=True)
    click.echo("Stopped.")
