"""What the game's overview shows of absences: who is away (dates only), the viewer's own."""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n.dates import day_text
from ...models import Game, Player
from ...services import absence
from ..session import current_language


@dataclass(frozen=True)
class MyAbsence:
    """One of the viewer's own absences, its days in the page's language."""

    id: int
    starts: str
    ends: str
    note: str


def absence_context(game: Game, player: Player | None, error: str | None = None,
                    values: dict | None = None) -> dict:
    """What the overview shows of absences: who is away (dates only), and the viewer's own."""
    lang = current_language()
    away = {pid: day_text(day, lang) for pid, day in absence.away_in(game).items()}
    mine = [MyAbsence(a.id, day_text(a.starts, lang), day_text(a.ends, lang), a.note)
            for a in (absence.standing(player) if player is not None else [])]
    open_to_absence = (player is not None and game.state != "finished" and player.active
                       and not player.is_bot and not game.practice)
    return {"away": away, "absences": mine, "absence_form": open_to_absence,
            "absence_error": error, "absence_values": values or {}}
