"""Mail kept in the database: the outbox, every inbound message, reminders sent."""

from __future__ import annotations

from datetime import datetime

from markupsafe import escape
from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .types import UTCDateTime, VerbatimText, utcnow


class MailBody(db.Model):
    """The text and HTML of one or more outbox mails.

    A round report is the same for every player of a language and zone, and a
    1,000-player round would otherwise store it 2,000 times (text and HTML per
    mail); mails queued together with the same body share one row. A round's
    mail greets each player by name: its body is stored once without the name,
    with the places the name goes (slot_text, slot_html: character offsets), and
    each mail keeps its own name (OutboxMessage.slot). A second place (slot2_text,
    slot2_html) takes the reader's board address (OutboxMessage.slot2, issue 20):
    both offsets count in the body without either.
    """

    __tablename__ = "mail_body"

    id: Mapped[int] = mapped_column(primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    html: Mapped[str | None] = mapped_column(Text)
    slot_text: Mapped[int | None] = mapped_column(Integer)
    slot_html: Mapped[int | None] = mapped_column(Integer)
    slot2_text: Mapped[int | None] = mapped_column(Integer)
    slot2_html: Mapped[int | None] = mapped_column(Integer)


def spliced(body: str, *places: tuple[int | None, str | None]) -> str:
    """``body`` with each value put in at its offset (offsets of the body without any)."""
    for at, value in sorted(((at, value) for at, value in places
                             if at is not None and value is not None), reverse=True):
        body = body[:at] + value + body[at:]
    return body


class OutboxMessage(db.Model):
    """A mail written in the same transaction as the event that causes it.

    status: pending -> sending (claimed by one sender) -> sent | failed.
    A pending mail whose next_attempt_at has come is sent by the outbox job.
    """

    __tablename__ = "outbox_message"
    # The caps on replies to unknown senders count recent mails of one kind.
    __table_args__ = (Index("ix_outbox_message_kind_created", "kind", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))  # invitation, confirmation, report, ...
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    to_addr: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(300))
    body_id: Mapped[int] = mapped_column(ForeignKey("mail_body.id"), index=True)
    headers: Mapped[str] = mapped_column(Text, default="{}")  # JSON: Reply-To, ...
    message_id: Mapped[str] = mapped_column(String(250), unique=True)
    status: Mapped[str] = mapped_column(String(10), default="pending", index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_error: Mapped[str] = mapped_column(Text, default="")
    slot: Mapped[str | None] = mapped_column(Text)  # this mail's own text in a shared body
    slot2: Mapped[str | None] = mapped_column(Text)  # its board address in a shared body
    body: Mapped[MailBody] = relationship()

    @property
    def body_text(self) -> str:
        """The text as sent: the body, with this mail's own parts (the name, the board
        address) in their places."""
        body = self.body
        return spliced(body.text, (body.slot_text, self.slot), (body.slot2_text, self.slot2))

    @property
    def body_html(self) -> str | None:
        """The HTML as sent (the name escaped), or None for a text-only mail."""
        body = self.body
        if body.html is None:
            return None
        return spliced(body.html,
                       (body.slot_html, None if self.slot is None else str(escape(self.slot))),
                       (body.slot2_html, None if self.slot2 is None else str(escape(self.slot2))))


class InboundMessage(db.Model):
    """Every message received, raw, stored before anything else happens.

    status: received -> applied | refused | ignored | duplicate | failed.
    """

    __tablename__ = "inbound_message"
    # The per-sender hourly limit counts a sender's recent messages for every message.
    __table_args__ = (Index("ix_inbound_message_sender", "from_addr", "received_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    source: Mapped[str] = mapped_column(String(8))  # imap, pipe, smtp
    raw: Mapped[bytes] = mapped_column(db.LargeBinary)
    message_id: Mapped[str | None] = mapped_column(String(998), index=True)
    from_addr: Mapped[str] = mapped_column(String(998), default="")
    subject: Mapped[str] = mapped_column(Text, default="")
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    status: Mapped[str] = mapped_column(String(10), default="received", index=True)
    error: Mapped[str] = mapped_column(Text, default="")
    body_text: Mapped[str | None] = mapped_column(VerbatimText)  # the turn text extracted
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    turn_version_id: Mapped[int | None] = mapped_column(ForeignKey("turn_version.id"))
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ReminderSent(db.Model):
    """One reminder per player, round and lead time, so it is sent once."""

    __tablename__ = "reminder_sent"
    __table_args__ = (UniqueConstraint("round_id", "player_id", "hours_before"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    hours_before: Mapped[int] = mapped_column(Integer)
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SchedulerState(db.Model):
    """Small named values the scheduler keeps: its heartbeat, the last tick."""

    __tablename__ = "scheduler_state"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text, default="")
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
