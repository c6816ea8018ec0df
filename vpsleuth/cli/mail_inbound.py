"""``vpsleuth mail ingest | smtpd | poll | idle | inbox | reprocess``: inbound mail from the
shell (COMMANDS, which mail.py adds to the ``mail`` group)."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy.exc import SQLAlchemyError

from ..jobs.scheduler import setup_logging
from ..mail.inbound import imap, pipeline
from ..mail.inbound.smtpd import controller
from ..mail.inbound.store import StoreError
from ..mail.inbound.watch import start_thread
from ..services.errors import ServiceError
from .common import ensure_schema

# sysexits.h, which MTAs (Postfix pipe, procmail) understand
EX_OK, EX_DATAERR, EX_TEMPFAIL = 0, 65, 75


def _run_until_stopped(start: Callable[[], Callable[[], object]], started: str) -> None:
    """Start a service and keep it running until Ctrl-C or SIGTERM (as systemd sends it).

    ``start`` starts it and returns what stops it; ``started`` is said once it runs.
    SIGTERM is caught before the start, so a stop sent while it starts still ends it cleanly.
    """
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    stop = start()
    click.echo(started, err=True)
    try:
        while not stopping.wait(1):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        stop()
    click.echo("Stopped.", err=True)


@click.command("ingest")
@with_appcontext
def ingest_command() -> None:
    """Read one RFC 822 message from standard input and run it through the pipeline.

    For an MTA pipe transport. Exit status 0 once the message is stored (also
    when it is refused or ignored: it is handled), 75 (EX_TEMPFAIL) when the
    database cannot be reached, so the MTA retries later, and 65 (EX_DATAERR)
    for input that cannot be stored at all.
    """
    raw = sys.stdin.buffer.read()
    try:
        ensure_schema()
        received = pipeline.receive(raw, "pipe")
    except StoreError as exc:
        click.echo(f"vpsleuth: {exc}", err=True)
        sys.exit(EX_TEMPFAIL if exc.temporary else EX_DATAERR)
    except (SQLAlchemyError, OSError) as exc:
        click.echo(f"vpsleuth: database unavailable: {exc.__class__.__name__}", err=True)
        sys.exit(EX_TEMPFAIL)
    except click.ClickException as exc:  # the schema is not up to date: retry after the fix
        click.echo(f"vpsleuth: {exc.message}", err=True)
        sys.exit(EX_TEMPFAIL)
    click.echo(f"inbound message {received.id}: {received.status}"
               + (f" ({received.error})" if received.error else ""))
    sys.exit(EX_OK)


@click.command("smtpd")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=2525, show_default=True, type=int, help="Port to listen on.")
@with_appcontext
def smtpd_command(host: str, port: int) -> None:
    """Receive mail by SMTP and run each message through the pipeline (until stopped)."""
    ensure_schema()
    server = controller(current_app._get_current_object(), host, port)  # type: ignore[attr-defined]

    def start() -> Callable[[], object]:
        server.start()
        return server.stop

    _run_until_stopped(start, f"Receiving mail on {host}:{port}; stop with Ctrl-C.")


@click.command("poll")
@with_appcontext
def poll_command() -> None:
    """Fetch the messages in IMAP_FOLDER once, store and process them, move them."""
    if not current_app.config.get("IMAP_HOST"):
        raise click.ClickException("IMAP_HOST is not set (VPSLEUTH_IMAP_HOST=...)")
    ensure_schema()
    try:
        result = imap.poll_once()
    except (imap.ImapError, OSError) as exc:
        raise click.ClickException(f"IMAP: {exc}") from None
    if result.busy:
        click.echo(f"{result.busy} is processing the mailbox; nothing done")
        return
    click.echo(f"stored {len(result.stored)}, moved {result.moved}, left {result.left}")
    for error in result.errors:
        click.echo(f"  {error}", err=True)
    if result.left:
        sys.exit(1)


@click.command("idle")
@with_appcontext
def idle_command() -> None:
    """Watch IMAP_FOLDER and process each message as it arrives (IDLE), until stopped.

    What `vpsleuth scheduler` and `vpsleuth serve` do in a thread when IMAP_IDLE
    is on; run it alone with IMAP_IDLE=false for them. Where the server lacks
    IDLE it looks every IMAP_POLL_SECONDS; after a dropped connection it tries
    again with a growing wait. One process at a time processes the mailbox: a
    second watcher stands by. Stop it with Ctrl-C or SIGTERM.
    """
    if not current_app.config.get("IMAP_HOST"):
        raise click.ClickException("IMAP_HOST is not set (VPSLEUTH_IMAP_HOST=...)")
    ensure_schema()
    setup_logging()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    _run_until_stopped(lambda: start_thread(app).stop,
                       f"Watching {app.config['IMAP_FOLDER']} on {app.config['IMAP_HOST']}; "
                       "stop with Ctrl-C.")


@click.command("inbox")
@click.option("--limit", default=20, show_default=True, type=int)
@click.option("--status", type=click.Choice(
    ["received", "applied", "refused", "ignored", "duplicate", "failed"]))
@with_appcontext
def inbox_command(limit: int, status: str | None) -> None:
    """List recent inbound messages with their status and error."""
    ensure_schema()
    rows = pipeline.recent(limit, status)
    if not rows:
        click.echo("No inbound messages.")
    for row in rows:
        when = row.received_at.strftime("%Y-%m-%d %H:%M")
        click.echo(f"{row.id:>5}  {when}  {row.source:<4}  {row.status:<9}  "
                   f"{row.from_addr[:40]:<40}  {row.subject[:50]}")
        if row.error:
            click.echo(f"       {row.error.splitlines()[0][:150]}")


@click.command("reprocess")
@click.argument("message_id", type=int)
@click.option("--force", is_flag=True,
              help="Also take ignored and refused messages, skipping the machine-mail checks.")
@with_appcontext
def reprocess_command(message_id: int, force: bool) -> None:
    """Run a stored inbound message through the pipeline again (by its id in 'inbox')."""
    ensure_schema()
    try:
        row = pipeline.reprocess(message_id, force=force)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from None
    click.echo(f"inbound message {row.id}: {row.status}"
               + (f" ({row.error})" if row.error else ""))


COMMANDS = (ingest_command, smtpd_command, poll_command, idle_command, inbox_command,
            reprocess_command)
