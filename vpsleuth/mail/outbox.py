"""The outbox: mails queued in the event's own transaction, sent later with retries.

queue() only adds a row to the session; the caller's commit makes the mail and
its cause durable together. send_due() claims pending rows one by one with a
conditional UPDATE, so any number of senders never send a row twice, and SMTP
being down only delays mail: each failure backs off (1 min, 2, 4, ... 6 h).
"""

from __future__ import annotations

import json
import logging
import smtplib
import uuid
from datetime import datetime, timedelta

from flask import current_app, render_template
from flask_mail import Message
from sqlalchemy import select, update

from ..extensions import db, mail
from ..i18n import translator
from ..models import Game, OutboxMessage, Player, utcnow

log = logging.getLogger(__name__)
MAX_BACKOFF = timedelta(hours=6)
STALE_CLAIM = timedelta(minutes=10)


def message_domain() -> str:
    return current_app.config["REPLY_ADDRESS"].rpartition("@")[2] or "localhost"


def render(template: str, lang: str, **context) -> tuple[str, str, str]:
    """(subject, text, html) from templates/email/<lang>/<template>.txt and .html.

    The text template's first line is ``Subject: ...``.
    """
    lang = lang if lang in ("en", "de") else "en"
    context.setdefault("t", translator(lang))
    context.setdefault("base_url", current_app.config["BASE_URL"].rstrip("/"))
    text = render_template(f"email/{lang}/{template}.txt", **context)
    first, _, body = text.partition("\n")
    if not first.startswith("Subject: "):
        raise ValueError(f"email/{lang}/{template}.txt must start with 'Subject: '")
    html = render_template(f"email/{lang}/{template}.html", lang=lang, **context)
    return first.removeprefix("Subject: ").strip(), body.lstrip("\n"), html


def queue(kind: str, to: str, template: str, lang: str, *, game: Game | None = None,
          player: Player | None = None, auto: bool = True, **context) -> OutboxMessage:
    """Add a rendered mail to the session (committed with the caller's transaction)."""
    from .keys import reply_address

    subject, text, html = render(template, lang, game=game, player=player, **context)
    headers = {"Auto-Submitted": "auto-generated"} if auto else {}
    if player is not None:
        headers["Reply-To"] = reply_address(player)
    msg = OutboxMessage(
        kind=kind, game_id=game.id if game else None, player_id=player.id if player else None,
        to_addr=to, subject=subject, body_text=text, body_html=html,
        headers=json.dumps(headers), message_id=f"<{uuid.uuid4().hex}.{kind}@{message_domain()}>",
    )
    db.session.add(msg)
    return msg


def sending_enabled() -> bool:
    """False on the embedded defaults: mails then wait in the outbox for the GM to read."""
    return bool(current_app.config.get("MAIL_SERVER")) and not current_app.config.get(
        "MAIL_SUPPRESS_SEND")


def _as_message(row: OutboxMessage) -> Message:
    headers = json.loads(row.headers)
    reply_to = headers.pop("Reply-To", None)
    msg = Message(subject=row.subject, recipients=[row.to_addr], body=row.body_text,
                  html=row.body_html, reply_to=reply_to, extra_headers=headers or None)
    msg.msgId = row.message_id
    return msg


def _claim(row_id: int, now: datetime) -> bool:
    done = db.session.execute(
        update(OutboxMessage).where(OutboxMessage.id == row_id,
                                    OutboxMessage.status == "pending")
        .values(status="sending", claimed_at=now).execution_options(synchronize_session=False))
    db.session.commit()
    return done.rowcount == 1


def release_stale_claims(now: datetime) -> int:
    """A sender that died mid-send leaves 'sending'; give such rows back after a while.

    The Message-ID stays the same, so a copy that did go out is recognised by
    mail clients as the same message.
    """
    done = db.session.execute(
        update(OutboxMessage).where(OutboxMessage.status == "sending",
                                    OutboxMessage.claimed_at < now - STALE_CLAIM)
        .values(status="pending").execution_options(synchronize_session=False))
    db.session.commit()
    return done.rowcount


def send_due(now: datetime | None = None, limit: int = 200) -> int:
    """Send pending mails whose time has come; returns how many were sent."""
    if not sending_enabled():
        return 0
    now = now or utcnow()
    release_stale_claims(now)
    ids = db.session.scalars(select(OutboxMessage.id).where(
        OutboxMessage.status == "pending", OutboxMessage.next_attempt_at <= now)
        .order_by(OutboxMessage.id).limit(limit)).all()
    sent = 0
    if not ids:
        return 0
    try:
        with mail.connect() as conn:
            for row_id in ids:
                sent += _send_one(conn, row_id, now)
    except (OSError, smtplib.SMTPException) as exc:
        # Could not connect, or the connection broke: what is left waits and backs off.
        db.session.rollback()
        log.warning("SMTP unavailable after %d sent: %s", sent, exc)
        for row in db.session.scalars(select(OutboxMessage).where(
                OutboxMessage.id.in_(ids), OutboxMessage.status.in_(("pending", "sending")))):
            _failed(row, now, f"SMTP unavailable: {exc}")
        db.session.commit()
    return sent


def _send_one(conn, row_id: int, now: datetime) -> int:
    if not _claim(row_id, now):
        return 0  # another sender has it
    row = db.session.get(OutboxMessage, row_id)
    try:
        conn.send(_as_message(row))
    except smtplib.SMTPRecipientsRefused as exc:
        row.attempts += 1
        row.status, row.last_error = "failed", f"recipient refused: {exc}"[:2000]
        db.session.commit()
        return 0
    row.status, row.sent_at = "sent", now
    row.attempts += 1
    db.session.commit()
    return 1


def _failed(row: OutboxMessage, now: datetime, error: str) -> None:
    row.attempts += 1
    row.last_error = error[:2000]
    limit = current_app.config["OUTBOX_MAX_ATTEMPTS"]
    row.status = "failed" if row.attempts >= limit else "pending"
    row.next_attempt_at = now + min(timedelta(minutes=2 ** (row.attempts - 1)), MAX_BACKOFF)
