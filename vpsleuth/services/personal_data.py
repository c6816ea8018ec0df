"""Everything stored about one person, as JSON: the right of access (issue 22, 3).

A person is an address. Signed in by a link of their own, the export covers
every seat the address holds in any game, its GM account, profile and rating,
the mails sent to it and received from it, its sessions, tokens, sign-in
links and counted requests, and the audit entries that name it. A session
opened by an invitation link, or a player's API token, acts for that one seat
only (a GM who forwarded the link must not read the player's other games), so
its export covers that seat alone.

Rows are given whole, table by table, column by column, so what the export
holds can be checked against the database; only what would let somebody act
as the person is left out (the hashes of session ids and tokens, the nonce of
a sign-in link). Audit entries are written by game masters: every other
address in them is replaced, so an export says nothing about anybody else.
"""

from __future__ import annotations

import base64
import json
import re
from datetime import datetime

from sqlalchemy import func, or_, select

from ..extensions import db
from ..models import (
    ApiToken,
    AuditEntry,
    GameMaster,
    InboundMessage,
    JoinRequest,
    LoginToken,
    MailBody,
    OutboxMessage,
    Player,
    PlayerNotebook,
    Profile,
    RateEvent,
    Rating,
    RatingChange,
    ReminderSent,
    RoundResult,
    StandingQuestion,
    StandingTip,
    TurnVersion,
    WebSession,
    utcnow,
)
from . import events, limits
from .access import Viewer

FORMAT = "vpsleuth-personal-data/1"
# Columns never handed out: they would let the holder of the file act as the person.
SECRET_COLUMNS = {"token_hash", "nonce"}
ADDRESS = re.compile(r"[^\s@\"'<>,;:()\[\]]+@[^\s@\"'<>,;:()\[\]]+")
REDACTED = "(another address)"


def _value(value):
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bytes | memoryview):
        return {"text": bytes(value).decode("utf-8", "replace"),
                "base64": base64.b64encode(bytes(value)).decode()}
    return value


def dump(row) -> dict:
    """Every column of ``row`` but the secret ones, as JSON-able values."""
    return {c.key: _value(getattr(row, c.key)) for c in row.__mapper__.column_attrs
            if c.key not in SECRET_COLUMNS}


def seats_of(viewer: Viewer) -> list[Player]:
    """The seats an export or a deletion acts on: every one of the address, or the one."""
    query = select(Player).where(func.lower(Player.email) == viewer.email,
                                 Player.left_at.is_(None))
    if viewer.player_id is not None:
        query = query.where(Player.id == viewer.player_id)
    return list(db.session.scalars(query.order_by(Player.id)))


def redact(text: str, own: str) -> str:
    """``text`` with every address but ``own`` replaced."""
    return ADDRESS.sub(lambda m: m.group(0) if m.group(0).lower() == own else REDACTED, text)


def audit_about(email: str, seats: list[Player], whole: bool) -> list[AuditEntry]:
    """Audit entries that name the address (account only) or one of the seats by name."""
    clauses = []
    for p in seats:
        clauses.append((AuditEntry.game_id == p.game_id)
                       & AuditEntry.detail.contains(json.dumps(p.name)))
    if whole:
        like = f"%{email}%"
        clauses += [func.lower(AuditEntry.actor).like(like),
                    func.lower(AuditEntry.detail).like(like)]
    if not clauses:
        return []
    return list(db.session.scalars(select(AuditEntry).where(or_(*clauses))
                                   .order_by(AuditEntry.id)))


def _rows(model, *clauses) -> list:
    clauses = [c for c in clauses if c is not None]
    if not clauses:
        return []
    return list(db.session.scalars(select(model).where(or_(*clauses)).order_by(
        *model.__mapper__.primary_key)))


def _mail(mail: OutboxMessage, email: str, ids: list[int]) -> dict:
    """A mail as sent; one to somebody else that names the person (a join request to its
    GM) with every other address in it replaced."""
    row = {**dump(mail), "body_text": mail.body_text, "body_html": mail.body_html}
    if mail.player_id in ids or mail.to_addr.lower() == email:
        return row
    return {k: redact(v, email) if isinstance(v, str) else v for k, v in row.items()}


def export(viewer: Viewer, now: datetime | None = None) -> dict:
    """Everything stored about the viewer (see the module's docstring), as JSON-able data."""
    email = viewer.email
    whole = viewer.player_id is None
    seats = seats_of(viewer)
    ids = [p.id for p in seats]
    gm = db.session.scalar(select(GameMaster).where(func.lower(GameMaster.email) == email)) \
        if whole else None
    profile = db.session.scalar(select(Profile).where(Profile.email == email)) if whole else None
    by_address = (lambda column: func.lower(column) == email) if whole else (lambda _c: None)
    tables: dict[str, list] = {
        "game_master": [gm] if gm else [],
        "profile": [profile] if profile else [],
        "rating": _rows(Rating, Rating.profile_id == profile.id) if profile else [],
        "rating_change": _rows(RatingChange, RatingChange.player_id.in_(ids),
                               RatingChange.profile_id == profile.id if profile else None),
        "player": seats,
        "turn_version": _rows(TurnVersion, TurnVersion.player_id.in_(ids)),
        "standing_question": _rows(StandingQuestion, StandingQuestion.player_id.in_(ids)),
        "standing_tip": _rows(StandingTip, StandingTip.player_id.in_(ids)),
        "round_result": _rows(RoundResult, RoundResult.player_id.in_(ids)),
        "player_notebook": _rows(PlayerNotebook, PlayerNotebook.player_id.in_(ids),
                                 by_address(PlayerNotebook.kept_by)),
        "reminder_sent": _rows(ReminderSent, ReminderSent.player_id.in_(ids)),
        "api_token": _rows(ApiToken, ApiToken.player_id.in_(ids),
                           ApiToken.game_master_id == gm.id if gm else None),
        "web_session": _rows(WebSession, WebSession.player_id.in_(ids),
                             by_address(WebSession.email)),
        "login_token": _rows(LoginToken, LoginToken.player_id.in_(ids),
                             by_address(LoginToken.email)),
        "join_request": _rows(JoinRequest, JoinRequest.player_id.in_(ids),
                              by_address(JoinRequest.email)),
        "inbound_message": _rows(InboundMessage, InboundMessage.player_id.in_(ids),
                                 func.lower(InboundMessage.from_addr).like(f"%{email}%")
                                 if whole else None),
        "rate_event": _rows(RateEvent, RateEvent.key == limits.key_of(email)) if whole else [],
    }
    out = {name: [dump(r) for r in rows] for name, rows in tables.items()}
    like = f"%{email}%"
    naming = select(MailBody.id).where(or_(func.lower(MailBody.text).like(like),
                                           func.lower(MailBody.html).like(like)))
    mails = _rows(OutboxMessage, OutboxMessage.player_id.in_(ids),
                  by_address(OutboxMessage.to_addr),
                  OutboxMessage.body_id.in_(naming) if whole else None)
    out["outbox_message"] = [_mail(m, email, ids) for m in mails]
    out["audit_entry"] = [{**dump(a), "actor": redact(a.actor, email),
                           "detail": redact(a.detail, email)}
                          for a in audit_about(email, seats, whole)]
    # HOOK (issue 20, the game board; issue 21, push): other features add their rows about
    # the person here, each answering the signal with {table name: [rows]}.
    for _receiver, extra in events.personal_data_asked.send(email, seats=seats, whole=whole):
        for name, rows in (extra or {}).items():
            out[name] = rows
    return {"format": FORMAT, "exported_at": (now or utcnow()).isoformat(), "address": email,
            "scope": "account" if whole else "one game",
            "games": {str(p.game_id): p.game.name for p in seats},
            "tables": out}
