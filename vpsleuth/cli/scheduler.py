"""``vpsleuth scheduler`` (the jobs alone) and ``vpsleuth serve`` (web, API and jobs).

How the jobs are scheduled and the IMAP watcher started is vpsleuth/jobs/scheduler.py's
business; these commands start it, say what runs and stop it on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import time

import click
from flask import current_app
from flask.cli import with_appcontext
from waitress import create_server

from .. import jobs
from ..extensions import db
from ..jobs.scheduler import (
    SoleScheduler,
    setup_logging,
    start_background,
    start_watcher,
    stop_on_sigterm,
)
from ..mail.outbox import sending_enabled
from ..models import GameMaster
from ..services.links import configured, remember_served
from .common import ensure_schema


@click.command("scheduler")
@click.option("--once", is_flag=True,
              help="Run every job once and exit (for cron, or to catch up by hand).")
@with_appcontext
def scheduler_command(once: bool) -> None:
    """Run the scheduler in the foreground: resolve rounds, remind, send and fetch mail.

    On PostgreSQL several (on several hosts) divide the work; on SQLite one works
    and another one waits. Stop it with Ctrl-C or SIGTERM.
    """
    ensure_schema()
    app = current_app._get_current_object()
    setup_logging()
    if once:
        sole = SoleScheduler(app)
        if not sole.held():
            raise click.ClickException(
                "another scheduler works on this SQLite database and runs these jobs "
                "already; nothing was done")
        try:
            for job_id, result in jobs.run_all(app).items():
                click.echo(f"{job_id}: {result}")
        finally:
            sole.release()
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
    ensure_schema()
    app = current_app._get_current_object()
    setup_logging()
    try:
        server = create_server(app, host=host, port=port, threads=threads, ident="vpsleuth")
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: "
                                   f"{exc.strerror or exc}") from None
    # Links in mails follow this address unless BASE_URL is set (vpsleuth/services/links.py).
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
