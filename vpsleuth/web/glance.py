"""The games list at a glance, and the German words of the glance and schedule pages.

Round, deadline and time left in the viewer's zone, whether the viewer's turn
is in, and how many of the players have sent one (services.glance).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..i18n import add, translate
from ..models import Game, Player, Round
from ..schedule import format_deadline
from ..services import glance
from ..services.access import Viewer
from .session import current_language


@dataclass(frozen=True)
class GameCard:
    """One game of the list: what services.glance knows, and its deadline as shown."""

    at: glance.GameAtAGlance
    deadline: Any  # player.common.Deadline, or None without an open round


@dataclass(frozen=True)
class TurnRow:
    """One player of the overview's "who has sent a turn": a name and a time, no more."""

    name: str
    me: bool
    sent: bool
    iso: str | None  # UTC, for <time datetime> and the browser's conversion
    text: str | None  # in the viewer's (or the game's) zone


def game_cards(viewer: Viewer) -> list[GameCard]:
    """The viewer's games, newest first, each with its open round's deadline."""
    # Imported here: the players' blueprint imports this module for its overview.
    from .player.common import deadline_of

    return [GameCard(g, deadline_of(g.round, g.game, g.player) if g.round else None)
            for g in glance.games_at_a_glance(viewer)]


def turn_rows(round_: Round, game: Game, viewer: Player | None) -> list[TurnRow]:
    """Every active player of the open round: sent or not, and when, in the viewer's zone."""
    from .player.common import zone_of

    zone, lang = zone_of(game, viewer), current_language()
    bot = translate(lang, "bot")  # a computer player is marked as in the reports
    return [TurnRow(f"{row.player.name} ({bot})" if row.player.is_bot else row.player.name,
                    viewer is not None and row.player.id == viewer.id,
                    row.sent,
                    row.received_at.strftime("%Y-%m-%dT%H:%M:%SZ") if row.received_at else None,
                    format_deadline(row.received_at, zone, lang) if row.received_at else None)
            for row in glance.turns_in(round_)]


add("de", {
    # the games list
    "{} of {} sent": "{} von {} abgeschickt",
    "Your turn is due": "Dein Zug fehlt noch",
    "Enter your turn": "Zug eingeben",
    "Change your turn": "Zug ändern",
    "Latest report": "Neuester Bericht",
    "paused": "pausiert",
    "withdrawn": "ausgeschieden",
    "Games you play in": "Partien, in denen du mitspielst",
    # who has sent a turn (overview)
    "Turns this round": "Züge dieser Runde",
    "sent": "abgeschickt",
    "not yet": "noch nicht",
    "Who has sent a turn and when; never what it says.":
        "Wer einen Zug geschickt hat und wann; nie, was darin steht.",
    "you": "du",
    # early resolution, said where it matters
    "Round end": "Rundenende",
    "as soon as every player has sent a turn, at the latest at the deadline":
        "sobald alle Spieler einen Zug geschickt haben, spätestens zum Abgabetermin",
    "at the deadline": "zum Abgabetermin",
    "the next deadline keeps the calendar": "folgt der nächste Termin dem Kalender",
    "the next round gets a whole interval from the close":
        "bekommt die nächste Runde einen ganzen Abstand ab dem Ende",
    "The round closes as soon as everyone has sent a turn.":
        "Die Runde endet, sobald alle einen Zug geschickt haben.",
    "The round closes as soon as everyone has sent a turn; a change after that is too late.":
        "Die Runde endet, sobald alle einen Zug geschickt haben; danach ist eine Änderung zu "
        "spät.",
    # the GM console
    "After a round closes early, the next deadline":
        "Endet eine Runde vorzeitig, ist der nächste Abgabetermin",
    "keeps the calendar": "der im Kalender vorgesehene",
    "is a whole interval after the close": "einen ganzen Abstand nach dem Ende",
    "Early: everyone has sent a turn, or you resolve the round before its deadline. You can "
    "change this later on the game's page.":
        "Vorzeitig: Alle haben gezogen, oder du wertest die Runde vor ihrem Termin aus. Du "
        "kannst das später auf der Seite der Partie ändern.",
    "After an early close": "Nach vorzeitigem Ende",
    "Saved: after an early close the next deadline keeps the calendar.":
        "Gespeichert: Nach vorzeitigem Ende folgt der nächste Termin dem Kalender.",
    "Saved: after an early close the next round gets a whole interval from the close.":
        "Gespeichert: Nach vorzeitigem Ende bekommt die nächste Runde einen ganzen Abstand ab "
        "dem Ende.",
    "Move the deadline": "Termin verschieben",
    "Later or earlier, but not into the past. The players get a mail with the new deadline.":
        "Später oder früher, aber nicht in die Vergangenheit. Die Spieler bekommen eine Mail "
        "mit dem neuen Termin.",
    "No turn yet from": "Noch kein Zug von",
    "and {} more": "und {} weitere",
    "They score nothing this round.": "Sie punkten in dieser Runde nicht.",
    "Every player has sent a turn.": "Alle Spieler haben einen Zug geschickt.",
    "Resolve this round now? No turn yet from {}: they score nothing this round. This cannot "
    "be undone.":
        "Diese Runde jetzt auswerten? Noch kein Zug von {}: Sie punkten in dieser Runde nicht. "
        "Das lässt sich nicht rückgängig machen.",
    "deadline brought forward": "Termin vorverlegt",
    "deadline after an early close chosen": "Termin nach vorzeitigem Ende gewählt",
})
