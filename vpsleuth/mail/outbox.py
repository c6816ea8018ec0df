"""The outbox: mails queued in the event's own transaction, sent later with retries.

queue() only adds a row to the session; the caller's commit makes the mail and
its cause durable together. send_due() claims pending rows one by one with a
conditional UPDATE, so any number of senders never send a row twice (on
PostgreSQL they skip each other's rows and divide the outbox), and SMTP
being down only delays mail: each failure backs off (1 min, 2, 4, ... 6 h).
Every status change after a claim is conditional too, so a sender that fails
never undoes what another sender did.
"""

from __future__ import annotations

import json
import logging
import os
import smtplib
from collections.abc import Iterable
from datetime import datetime, timedelta

from flask import current_app
from flask_mail import Connection, Message
from sqlalchemy import ColumnElement, and_, insert, or_, select, update

from ..extensions import db
from ..models import Game, MailBody, OutboxMessage, Player, utcnow
from ..services import claims, reconnect
from . import threads, unsubscribe
from .keys import board_address, board_addresses, reply_address, reply_addresses
from .render import Shared, render

log = logging.getLogger(__name__)
MAX_BACKOFF = timedelta(hours=6)
STALE_CLAIM = timedelta(minutes=10)
# How long a mail the server took is marked sent while the database is away. Not
# marked, it would be given back after STALE_CLAIM and sent a second time.
SENT_RETRY_SECONDS = 60
STATUSES = ("pending", "sending", "sent", "failed")


def message(kind: str, to: str, template: str, lang: str, *, game: Game | None = None,
            player: Player | None = None, auto: bool = True, shared: Shared | None = None,
            reply: threads.Answered | None = None, reply_to: str | None = None,
            **context) -> dict:
    """One mail as a dict of outbox columns, its body_text and body_html, and where the
    reader's name goes in them (slot_text, slot_html): what queue_all() stores.

    ``shared``: the mail as render_shared() made it for every reader like this
    one; ``reply``: the received mail this one answers (see threads); ``reply_to``:
    another Reply-To than the player's reply key (the board's mails: the board address).
    """
    board_text = board_html = slot2 = None
    if shared is not None:
        subject, text, html = shared.subject, shared.text, shared.html
        at_text, at_html = shared.at_text, shared.at_html
        slot = player.name if shared.personal else None
        if shared.has_board:
            board_text, board_html, slot2 = (shared.board_text, shared.board_html,
                                             board_address(player))
    else:
        # The foot names what the List-Unsubscribe link (unsubscribe.headers) turns off.
        context.setdefault("unsubscribe_kind",
                           unsubscribe.turned_off_by(kind) if reply is None else None)
        subject, text, html = render(template, lang, game=game, player=player, **context)
        at_text = at_html = slot = None
    if reply is not None:
        subject = reply.reply_subject(subject)[:300]
    domain = threads.message_domain()
    reply_to = reply_to or (reply_address(player) if player is not None else None)
    headers = threads.headers(auto=auto, player=player, game=game, reply=reply, domain=domain,
                              reply_to=reply_to)
    if reply is None:  # a reply answers one mail of the player's; nothing to turn off
        headers.update(unsubscribe.headers(kind, player))
    return dict(
        kind=kind, game_id=game.id if game else None, player_id=player.id if player else None,
        to_addr=to, subject=subject, body_text=text, body_html=html, slot_text=at_text,
        slot_html=at_html, slot2_text=board_text, slot2_html=board_html, slot=slot,
        slot2=slot2, headers=json.dumps(headers),
        message_id=f"<{os.urandom(16).hex()}.{kind}@{domain}>",
    )


def personal(kind: str, game: Game, readers: Iterable[tuple[Player, Shared]]) -> list[dict]:
    """The mails of one kind to many players of a game, for queue_all(): what message()
    makes from each player's ``Shared`` mail, with the work common to all done once.

    Only the name, the address, the reply key and the Message-IDs are each
    player's own: a 1,000-player round writes 2,000 mails.
    """
    domain = threads.message_domain()
    thread_of, address_of = threads.game_threads(game, domain), reply_addresses()
    board_of = board_addresses()
    letting_go = unsubscribe.for_kind(kind)
    game_id, quoted = game.id, json.encoder.encode_basestring_ascii
    mails = []
    for player, shared in readers:
        player_id = player.id
        # The JSON of threads.headers() and unsubscribe.headers(), written out: json.dumps
        # of a dict costs more than the rest of a mail.
        headers = (f'{{"Auto-Submitted": "auto-generated", "References": '
                   f'{quoted(thread_of(player_id))}, "Reply-To": {quoted(address_of(player))}')
        if letting_go is not None:
            headers += "".join(f", {quoted(name)}: {quoted(value)}"
                               for name, value in letting_go(player).items())
        headers += "}"
        mails.append(dict(
            kind=kind, game_id=game_id, player_id=player_id, to_addr=player.email,
            subject=shared.subject, body_text=shared.text, body_html=shared.html,
            slot_text=shared.at_text, slot_html=shared.at_html,
            slot2_text=shared.board_text, slot2_html=shared.board_html,
            slot=player.name if shared.personal else None,
            slot2=board_of(player) if shared.has_board else None, headers=headers,
            message_id=f"<{os.urandom(16).hex()}.{kind}@{domain}>"))
    return mails


_BODY = ("body_text", "body_html", "slot_text", "slot_html", "slot2_text", "slot2_html")


def queue(kind: str, to: str, template: str, lang: str, *, game: Game | None = None,
          player: Player | None = None, auto: bool = True,
          reply: threads.Answered | None = None, reply_to: str | None = None,
          **context) -> OutboxMessage:
    """Add a rendered mail to the session (committed with the caller's transaction)."""
    values = message(kind, to, template, lang, game=game, player=player, auto=auto,
                     reply=reply, reply_to=reply_to, **context)
    body = MailBody(**{column: values.pop(key) for key, column in zip(
        _BODY, ("text", "html", *_BODY[2:]), strict=True)})
    msg = OutboxMessage(body=body, **values)
    db.session.add(msg)
    return msg


def queue_all(messages: list[dict]) -> None:
    """Write many mails made by message() or personal() in the caller's transaction (after what the
    session holds so far): each distinct body once, then the mails, each with one
    executemany INSERT.

    For mails to every player of a game: thousands of ORM objects would cost more
    than rendering them, and a report or a round's mail is the same for every
    player of a language and zone but for the name in it. The dicts are used up:
    each keeps only its outbox columns.
    """
    if not messages:
        return
    db.session.flush()
    distinct: dict[tuple, int] = {}
    bodies = [distinct.setdefault(tuple(mail.pop(key) for key in _BODY), len(distinct))
              for mail in messages]  # the rows keep only outbox columns
    ids = db.session.scalars(
        insert(MailBody).returning(MailBody.id, sort_by_parameter_order=True),
        [dict(zip(("text", "html", *_BODY[2:]), body, strict=True))
         for body in distinct]).all()
    for mail, body in zip(messages, bodies, strict=True):
        mail["body_id"] = ids[body]
    db.session.execute(insert(OutboxMessage.__table__), messages)


def sending_enabled() -> bool:
    """False on the embedded defaults: mails then wait in the outbox for the GM to read."""
    return bool(current_app.config.get("MAIL_SERVER")) and not current_app.config.get(
        "MAIL_SUPPRESS_SEND")


def messages(status: str | None = None, limit: int = 50) -> list[OutboxMessage]:
    """The newest mails of the outbox, optionally of one status, newest first."""
    query = select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(limit)
    if status is not None:
        query = query.where(OutboxMessage.status == status)
    return list(db.session.scalars(query))


def as_message(row: OutboxMessage) -> Message:
    """The Flask-Mail message for a row, with our own Message-ID."""
    headers = json.loads(row.headers)
    reply_to = headers.pop("Reply-To", None)
    msg = Message(subject=row.subject, recipients=[row.to_addr], body=row.body_text,
                  html=row.body_html, reply_to=reply_to, extra_headers=headers or None)
    msg.msgId = row.message_id
    return msg


class _Connection(Connection):
    """Flask-Mail's connection with a timeout, so a hanging server cannot stall a job."""

    def configure_host(self) -> smtplib.SMTP:
        timeout = float(current_app.config.get("MAIL_TIMEOUT") or 60)
        cls = smtplib.SMTP_SSL if self.mail.use_ssl else smtplib.SMTP
        host = cls(self.mail.server, self.mail.port, timeout=timeout)
        host.set_debuglevel(int(self.mail.debug))
        if self.mail.use_tls:
            host.starttls()
        if self.mail.username and self.mail.password:
            host.login(self.mail.username, self.mail.password)
        return host


def _claim_next(now: datetime) -> int | None:
    """Claim the oldest due mail for this sender (pending -> sending, committed); its id.

    One at a time, so a sender that dies holds at most one mail (given back after
    STALE_CLAIM), and on PostgreSQL a mail another sender is claiming is skipped,
    not waited for: several schedulers divide the outbox (services/claims.py).
    """
    claimed = claims.claim_batch(OutboxMessage, is_due(now), 1, status="sending",
                                 claimed_at=now)
    return claimed[0] if claimed else None


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


def retry_now(now: datetime, *, failed: bool = False) -> int:
    """Make every pending mail (and with ``failed`` every failed one) due at ``now``.

    For the GM after the mail server is repaired; attempts are kept.
    """
    statuses = ("pending", "failed") if failed else ("pending",)
    done = db.session.execute(
        update(OutboxMessage).where(OutboxMessage.status.in_(statuses))
        .values(status="pending", next_attempt_at=now)
        .execution_options(synchronize_session=False))
    db.session.commit()
    return done.rowcount


def is_due(now: datetime) -> ColumnElement[bool]:
    """Pending, and never tried or its back-off over.

    A new mail is due at once, whatever the clocks of the processes that queue
    and send it say; next_attempt_at only counts after a failed attempt.
    """
    return and_(OutboxMessage.status == "pending",
                or_(OutboxMessage.attempts == 0, OutboxMessage.next_attempt_at <= now))


def send_due(now: datetime | None = None, limit: int = 200) -> int:
    """Send up to ``limit`` due mails over one SMTP connection; returns how many were sent."""
    if not sending_enabled():
        return 0
    now = now or utcnow()
    release_stale_claims(now)
    current = _claim_next(now)
    if current is None:
        return 0  # nothing due: no connection to the mail server
    sent, tried = 0, 0
    try:
        with _Connection(current_app.extensions["mail"]) as conn:
            while current is not None:
                sent += _send_claimed(conn, current, now)
                tried += 1
                current = _claim_next(now) if tried < limit else None
    except (OSError, smtplib.SMTPException) as exc:
        # Could not connect, or the connection broke: what is left waits and backs off.
        db.session.rollback()
        log.warning("SMTP unavailable after %d sent: %s", sent, exc)
        error = f"SMTP unavailable: {exc}"
        if current is not None:
            _back_off(current, now, error, claimed=True)
        for row_id in db.session.scalars(select(OutboxMessage.id).where(is_due(now))
                                         .order_by(OutboxMessage.id).limit(limit - tried)):
            _back_off(row_id, now, error, claimed=False)
        db.session.commit()
    return sent


def _send_claimed(conn: Connection, row_id: int, now: datetime) -> int:
    """Send one row this sender has claimed; 1 if it went out."""
    row = db.session.get(OutboxMessage, row_id)
    message, attempts = as_message(row), row.attempts
    # No transaction stays open while the mail server answers (up to MAIL_TIMEOUT):
    # it would hold a database connection, and on PostgreSQL count as idle in one.
    db.session.commit()
    try:
        conn.send(message)
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _ in exc.recipients.values()]
        if codes and all(code >= 500 for code in codes):
            _mark(row_id, "sending", status="failed", attempts=attempts + 1,
                  last_error=f"recipient refused: {exc.recipients}"[:2000])
        else:  # a temporary refusal (greylisting, full mailbox): try again later
            _back_off(row_id, now, f"recipient deferred: {exc.recipients}", claimed=True)
        db.session.commit()
        return 0
    reconnect.retried(lambda: _mark_sent(row_id, now, attempts + 1),
                      seconds=SENT_RETRY_SECONDS, what=f"outbox mail {row_id} sent")
    return 1


def _mark_sent(row_id: int, now: datetime, attempts: int) -> None:
    """Record a mail the server took; a second call, after a commit that landed, changes
    nothing (the row is no longer "sending")."""
    _mark(row_id, "sending", status="sent", sent_at=now, attempts=attempts)
    db.session.commit()


def _mark(row_id: int, expected: str, **values) -> bool:
    """Change a row only if it still has the status this sender saw."""
    done = db.session.execute(
        update(OutboxMessage).where(OutboxMessage.id == row_id,
                                    OutboxMessage.status == expected)
        .values(**values).execution_options(synchronize_session=False))
    return done.rowcount == 1


def backoff(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failure: 1 min, 2, 4, ... at most 6 h."""
    return min(timedelta(minutes=2 ** min(attempts - 1, 20)), MAX_BACKOFF)


def _back_off(row_id: int, now: datetime, error: str, *, claimed: bool) -> None:
    """Count a failed attempt; a row another sender sent meanwhile is left alone."""
    row = db.session.get(OutboxMessage, row_id, populate_existing=True)
    if row is None:
        return
    attempts = row.attempts + 1
    limit = current_app.config["OUTBOX_MAX_ATTEMPTS"]
    db.session.execute(
        update(OutboxMessage).where(
            OutboxMessage.id == row_id,
            OutboxMessage.status == ("sending" if claimed else "pending"),
            OutboxMessage.attempts == row.attempts)
        .values(attempts=attempts, last_error=error[:2000],
                status="failed" if attempts >= limit else "pending",
                next_attempt_at=now + backoff(attempts))
        .execution_options(synchronize_session=False))
