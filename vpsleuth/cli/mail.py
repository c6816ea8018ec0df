"""``vpsleuth mail ...``: the outbox and the inbound pipeline from the shell.

``outbox`` and ``send`` are here: on the embedded defaults no SMTP server is
configured, mails wait in the outbox, and this is how the GM reads them. The
inbound commands are in mail_inbound.py.
"""

from __future__ import annotations

import json

import click

from ..extensions import db
from ..mail import outbox
from ..models import OutboxMessage, utcnow
from . import mail_inbound
from .common import gm_command


@click.group("mail")
def mail_cli() -> None:
    """Read the outbox, send mail, ingest and reprocess inbound mail."""


for _command in mail_inbound.COMMANDS:
    mail_cli.add_command(_command)


@gm_command(mail_cli, "outbox")
@click.option("--status", type=click.Choice(["all", *outbox.STATUSES]), default="all",
              show_default=True, help="Only mails in this state.")
@click.option("--limit", type=click.IntRange(1), default=50, show_default=True,
              help="How many of the newest mails to list.")
@click.option("--show", "show_id", type=int, metavar="ID", help="Print one mail in full.")
def outbox_command(status: str, limit: int, show_id: int | None) -> None:
    """List the outbox (newest first), or print one mail in full with --show ID."""
    if show_id is not None:
        row = db.session.get(OutboxMessage, show_id)
        if row is None:
            raise click.ClickException(f"no mail {show_id} in the outbox; "
                                       "'vpsleuth mail outbox' lists them")
        click.echo(_full(row), nl=False)
        return
    rows = outbox.messages(None if status == "all" else status, limit)
    if not rows:
        click.echo("The outbox is empty." if status == "all" else f"No {status} mail.")
        return
    for row in rows:
        click.echo(f"{row.id:>5}  {row.status:<7} {row.created_at:%Y-%m-%d %H:%M}  "
                   f"{row.kind:<14} {row.to_addr:<30} {row.subject}")
    if not outbox.sending_enabled():
        click.echo("No MAIL_SERVER is configured: nothing is sent; "
                   "read a mail with 'vpsleuth mail outbox --show ID'.")


def _full(row: OutboxMessage) -> str:
    headers = json.loads(row.headers)
    lines = [f"To: {row.to_addr}", f"Subject: {row.subject}",
             f"Message-ID: {row.message_id}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines += [f"Status: {row.status} (attempts: {row.attempts}, "
              f"created {row.created_at:%Y-%m-%d %H:%M} UTC"
              + (f", sent {row.sent_at:%Y-%m-%d %H:%M} UTC" if row.sent_at else "")
              + (f", next attempt {row.next_attempt_at:%Y-%m-%d %H:%M} UTC"
                 if row.status == "pending" else "") + ")"]
    if row.last_error:
        lines.append(f"Last error: {row.last_error}")
    return "\n".join(lines) + "\n\n" + row.body_text.rstrip("\n") + "\n"


@gm_command(mail_cli, "send")
@click.option("--retry", is_flag=True,
              help="Ignore the back-off: try every pending mail now.")
@click.option("--retry-failed", is_flag=True,
              help="Also give mails that failed for good another try.")
def send_command(retry: bool, retry_failed: bool) -> None:
    """Send the mail that is due now (the scheduler does this by itself)."""
    if not outbox.sending_enabled():
        raise click.ClickException(
            "no MAIL_SERVER is configured (or MAIL_SUPPRESS_SEND is set): mails wait in the "
            "outbox; set VPSLEUTH_MAIL_SERVER to send them")
    now = utcnow()
    if retry or retry_failed:
        outbox.retry_now(now, failed=retry_failed)
    pending = OutboxMessage.status == "pending"
    due = _count(outbox.is_due(now))
    sent = outbox.send_due(now)
    waiting = _count(pending)
    click.echo(f"Sent {sent} mail{'s' if sent != 1 else ''}; {waiting} waiting.")
    if due and not sent:
        error = db.session.scalar(db.select(OutboxMessage.last_error).where(pending)
                                  .order_by(OutboxMessage.id.desc()).limit(1))
        raise click.ClickException(f"nothing could be sent ({error}); the mails wait "
                                   "and are tried again later")


def _count(*where) -> int:
    return db.session.scalar(db.select(db.func.count()).select_from(OutboxMessage)
                             .where(*where))
