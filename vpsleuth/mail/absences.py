"""The mail an absence writes: the player is told when the game master enters one for them.

(An absence the player announces by mail is answered by the pipeline itself,
mail/inbound/absence_mail.py; one from the web or the API needs no mail.)
"""

from __future__ import annotations

from ..i18n.dates import day_text
from ..models import Absence, Player
from . import outbox
from .notify import has_mailbox


def absence_announced(player: Player, *, absence: Absence, channel: str,
                      entered_by: str) -> None:
    """events.absence_announced: a GM's entry is confirmed to the player (never the note)."""
    if channel != "gm" or not has_mailbox(player):
        return
    lang = player.language
    outbox.queue("absence_entered", player.email, "absence_entered", lang, game=player.game,
                 player=player, starts=day_text(absence.starts, lang),
                 ends=day_text(absence.ends, lang), rule=player.game.missed_turn_rule)
