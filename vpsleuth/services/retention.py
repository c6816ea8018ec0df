"""How long what is kept about people is kept (issue 22, 4; the reasons: docs/privacy.md).

While a game runs, every raw mail and sent mail of it is kept: a player may
dispute a turn or a report, and the GM answers from them. Once it ends they
are kept for a while more, then removed by the ``retention`` job; what the
game is (the parsed turns, the results, the audit log) stays. Mails that
belong to no game (sign-in links, replies from unknown senders) count from
the day they came or went. Counted requests (rate limits: keyed hashes of
addresses and client addresses) and expired sign-in links go after a short
time. ``vpsleuth check`` reports what the job would remove now.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import and_, delete, func, or_, select

from ..extensions import db
from ..models import (
    Game,
    InboundMessage,
    LoginToken,
    MailBody,
    Notice,
    OutboxMessage,
    RateEvent,
    utcnow,
)

# Settings and their defaults (config/default.py); docs/privacy.md argues each.
DEFAULTS = {"RETAIN_INBOUND_DAYS": 30, "RETAIN_SENT_MAIL_DAYS": 30,
            "RETAIN_RATE_EVENTS_HOURS": 48, "RETAIN_SIGN_IN_LINKS_DAYS": 7,
            "RETAIN_NOTICES_DAYS": 3}
# Rate limits look back at most a day (join requests): their rows must outlive it.
RATE_WINDOW = timedelta(days=1)
BATCH = 500


def setting(name: str) -> float:
    return float(current_app.config.get(name, DEFAULTS[name]))


def _ended_before(moment: datetime):
    return select(Game.id).where(Game.state == "finished", Game.finished_at < moment)


def _due(now: datetime) -> dict[str, object]:
    """What is past its time: a query of the ids (or a delete condition) per kind."""
    inbound = now - timedelta(days=setting("RETAIN_INBOUND_DAYS"))
    sent = now - timedelta(days=setting("RETAIN_SENT_MAIL_DAYS"))
    rate = now - max(timedelta(hours=setting("RETAIN_RATE_EVENTS_HOURS")), RATE_WINDOW)
    links = now - timedelta(days=setting("RETAIN_SIGN_IN_LINKS_DAYS"))
    notices = now - timedelta(days=setting("RETAIN_NOTICES_DAYS"))
    return {
        "raw inbound mails": (InboundMessage, or_(
            InboundMessage.game_id.in_(_ended_before(inbound)),
            and_(InboundMessage.game_id.is_(None), InboundMessage.received_at < inbound))),
        "sent mails": (OutboxMessage, and_(
            OutboxMessage.status.in_(("sent", "failed")), or_(
                OutboxMessage.game_id.in_(_ended_before(sent)),
                and_(OutboxMessage.game_id.is_(None),
                     func.coalesce(OutboxMessage.sent_at, OutboxMessage.created_at) < sent)))),
        "rate-limit rows": (RateEvent, RateEvent.created_at < rate),
        "expired sign-in links": (LoginToken, LoginToken.expires_at < links),
        # Push and webhook notices once done, counted from their last try.
        "sent notices": (Notice, and_(
            Notice.status.in_(("sent", "dropped", "failed")),
            func.coalesce(Notice.claimed_at, Notice.created_at) < notices)),
    }


def pending(now: datetime | None = None) -> dict[str, int]:
    """How many rows of each kind the job would remove now (nothing is changed)."""
    now = now or utcnow()
    return {kind: db.session.scalar(select(func.count()).select_from(model).where(where))
            for kind, (model, where) in _due(now).items()}


def apply(now: datetime | None = None) -> dict[str, int]:
    """Remove what is past its time, in batches of BATCH rows; returns how many of each."""
    now = now or utcnow()
    removed = {}
    for kind, (model, where) in _due(now).items():
        removed[kind] = 0
        while True:
            ids = db.session.scalars(select(model.id).where(where).limit(BATCH)).all()
            if not ids:
                break
            bodies = set()
            if model is OutboxMessage:
                bodies = set(db.session.scalars(select(OutboxMessage.body_id).where(
                    OutboxMessage.id.in_(ids))))
            db.session.execute(delete(model).where(model.id.in_(ids)))
            if bodies:  # a body shared by mails still kept stays with them
                kept = set(db.session.scalars(select(OutboxMessage.body_id).where(
                    OutboxMessage.body_id.in_(bodies))))
                db.session.execute(delete(MailBody).where(MailBody.id.in_(bodies - kept)))
            db.session.commit()
            removed[kind] += len(ids)
    return removed
