"""The absence lines of a player's mail (orders/absence_line.py): announced, and answered.

A mail may hold absence lines only (no turn: nothing counts as sent), or absence
lines and a turn (both are applied; the turn is answered by its own mail). Each
absence line is announced through services/absence.py as the web's form is, and
one reply in the player's language says, line by line, what was noted and what
was not, and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ...extensions import db
from ...i18n import translate
from ...i18n.dates import day_text
from ...models import Player
from ...orders.absence_line import HINTS, AbsenceLine
from ...services import absence
from ...services.errors import ServiceError
from .. import outbox, threads
from ..notify import has_mailbox


@dataclass(frozen=True)
class Said:
    """One absence line as the reply states it."""

    line: int
    text: str  # the line as written
    ok: bool
    message: str  # in the player's language


def apply(player: Player, lines: list[AbsenceLine], entered_by: str,
          now: datetime) -> tuple[bool, str]:
    """Announce each line's absence, queue the reply and commit it.

    Returns whether every line was noted, and a summary for the stored message.
    """
    player_id, lang = player.id, player.language
    said: list[Said] = []
    for line in lines:
        player = db.session.get(Player, player_id)
        if not line.ok:
            said.append(Said(line.line, line.text, False, translate(
                lang, line.message_id).format(**line.params)))
            continue
        try:
            noted = absence.announce(player, line.starts, line.ends, line.note,
                                     channel="email", entered_by=entered_by or player.email,
                                     now=now)
        except ServiceError as exc:
            db.session.rollback()
            said.append(Said(line.line, line.text, False, exc.sentence(lang)))
            continue
        message = translate(lang, "Noted: you are away from {starts} until {ends}.").format(
            starts=day_text(noted.starts, lang), ends=day_text(noted.ends, lang))
        if getattr(noted, "start_moved", False):
            message += " " + translate(lang, "A first day in the past counts from today.")
        said.append(Said(line.line, line.text, True, message))
    player = db.session.get(Player, player_id)
    if has_mailbox(player):
        outbox.queue("absence", player.email, "absence", lang, game=player.game,
                     player=player, reply=threads.answered(), said=said,
                     hint=HINTS.get(lang, HINTS["en"]), rule=player.game.missed_turn_rule)
    db.session.commit()
    every = all(s.ok for s in said)
    summary = "; ".join(f"absence line {s.line}: {'noted' if s.ok else 'refused'}"
                        for s in said)
    return every, summary
