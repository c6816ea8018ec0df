"""Players where they are (issue 21): push subscriptions, a game's chat webhook, and the
durable queue of notices both channels send through.

A notice is stored in the transaction of what caused it (like the outbox's mail)
and sent later by the scheduler (vpsleuth/notices/queue.py claims and retries it);
nothing is sent from inside a request or a round's transaction.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .types import UTCDateTime, utcnow

__all__ = ["NOTICE_CHANNELS", "WEBHOOK_FORMATS", "GameWebhook", "Notice", "PushSubscription",
           "SiteKey"]

NOTICE_CHANNELS = ("push", "webhook")
WEBHOOK_FORMATS = ("discord", "slack", "mattermost", "matrix")


class PushSubscription(db.Model):
    """One browser on one device that receives a person's Web Push notices (RFC 8030).

    Keyed by the person's address (lower case), as a web session is: the notices of
    every game they play go to every device they switched on. ``endpoint`` is the push
    service's URL for this browser; ``p256dh`` and ``auth`` the keys the payload is
    encrypted to (RFC 8291). Removed when the push service answers 404 or 410.
    """

    __tablename__ = "push_subscription"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    endpoint: Mapped[str] = mapped_column(String(2000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    label: Mapped[str] = mapped_column(String(120), default="")  # "Firefox on Android"
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class GameWebhook(db.Model):
    """A game's incoming-webhook URL in a group's chat, set by its GM.

    ``format``: one of WEBHOOK_FORMATS. ``last_*``: the last delivery's result, shown
    to the GM (when, the HTTP status or the error, and whether it was delivered).
    """

    __tablename__ = "game_webhook"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), unique=True)
    url: Mapped[str] = mapped_column(String(2000))
    format: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_ok: Mapped[bool | None] = mapped_column()
    last_result: Mapped[str] = mapped_column(String(300), default="")


class Notice(db.Model):
    """One notice to send by push or webhook: stored first, sent by the scheduler.

    status: pending -> sending (claimed by one sender) -> sent | failed | dropped
    (its subscription or webhook is gone). ``payload``: JSON, made when the notice is
    queued, in the reader's language (push: title, body, url; webhook: the chat's own
    body). ``topic``: push's Topic header, so one notice per game replaces the last.
    """

    __tablename__ = "notice"
    __table_args__ = (Index("ix_notice_status_next", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    channel: Mapped[str] = mapped_column(String(8))  # NOTICE_CHANNELS
    kind: Mapped[str] = mapped_column(String(32))  # round_opened, reminder, report, ...
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    subscription_id: Mapped[int | None] = mapped_column(
        ForeignKey("push_subscription.id", ondelete="SET NULL"), index=True)
    webhook_id: Mapped[int | None] = mapped_column(
        ForeignKey("game_webhook.id", ondelete="SET NULL"), index=True)
    topic: Mapped[str | None] = mapped_column(String(32))
    payload: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(10), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_error: Mapped[str] = mapped_column(Text, default="")


class SiteKey(db.Model):
    """A key the service makes once and keeps: the VAPID key pair of Web Push (RFC 8292),
    unless the operator sets one (VAPID_PRIVATE_KEY)."""

    __tablename__ = "site_key"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
