"""Which round a reply is for, when the mail it answers names one.

A reply to "round 3 is open" that arrives after round 3 closed must not slip
into round 4 unnoticed: submit_turn refuses it, naming the open round. Only
mails that ask for a turn pin the round (round opened, reminder, confirmation,
deadline moved); a reply to a round report is a turn for the open round.

A confirmation that answers a mailed turn carries the player's subject ("Re:
..."), not ours: its round is the round of the turn it confirmed, found through
the mail it answers (its In-Reply-To).
"""

from __future__ import annotations

import json
import re
from email.message import Message

from sqlalchemy import select

from ...extensions import db
from ...models import InboundMessage, OutboxMessage, Player, Round, TurnVersion
from ..mime import header

_ROUND = re.compile(
    r"\b(?:round|runde)\s+(\d{1,3})\s+(?:is open|läuft)\b"
    r"|\b(?:for|für)\s+(?:round|runde)\s+(\d{1,3})\b"
    r"|\b(?:deadline of round|abgabetermin von runde)\s+(\d{1,3})\b",
    re.IGNORECASE)
_MSGID = re.compile(r"<[^<>\s]{1,250}>")


def round_in_subject(subject: str) -> int | None:
    """The round a subject of one of our turn-asking mails names, or None."""
    m = _ROUND.search(subject or "")
    if m is None:
        return None
    return int(next(g for g in m.groups() if g))


def answered_mail(msg: Message, player: Player) -> OutboxMessage | None:
    """Our mail to this player that the message replies to (In-Reply-To, References)."""
    for name in ("In-Reply-To", "References"):
        ids = _MSGID.findall(header(msg, name))[-20:]
        if not ids:
            continue
        ours = db.session.scalar(select(OutboxMessage).where(
            OutboxMessage.message_id.in_(ids), OutboxMessage.player_id == player.id)
            .order_by(OutboxMessage.id.desc()).limit(1))
        if ours is not None:
            return ours
    return None


def round_of_reply(msg: Message, player: Player) -> int | None:
    """The round the reply is for: from the mail it answers, else from its subject."""
    ours = answered_mail(msg, player)
    if ours is None:
        return round_in_subject(header(msg, "Subject"))
    headers = json.loads(ours.headers or "{}")
    if headers.get("Auto-Submitted") != "auto-replied":
        return round_in_subject(ours.subject)  # a subject of our own
    if ours.kind != "confirmation" or not headers.get("In-Reply-To"):
        return None  # a refusal (or a notice) answers with the player's subject: no round
    return db.session.scalar(
        select(Round.number).join(TurnVersion, TurnVersion.round_id == Round.id)
        .join(InboundMessage, InboundMessage.turn_version_id == TurnVersion.id)
        .where(InboundMessage.message_id == headers["In-Reply-To"],
               InboundMessage.player_id == player.id)
        .order_by(InboundMessage.id.desc()).limit(1))
