"""Words in the reader's language: gettext catalogues (vpsleuth/translations).

English texts are the message ids; ``translate(lang, text)`` looks ``text`` up
in the catalogue of ``lang`` (compiled ``.mo`` files, committed; see
vpsleuth/catalogue.py and docs/translating.md). The tables below are the old
hand-kept ones, consulted only while texts move into the catalogues.
"""

from __future__ import annotations

import gettext as _gettext
from functools import cache
from pathlib import Path

from babel.support import Translations

DIRECTORY = Path(__file__).resolve().parent / "translations"


def N_(text: str) -> str:  # noqa: N802  (gettext's own name for it)
    """Mark ``text`` for the catalogue; it is translated where it is shown."""
    return text


@cache
def catalogue(lang: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (an empty one for English)."""
    if lang == "en":
        return _gettext.NullTranslations()
    return Translations.load(str(DIRECTORY), [lang])

_DE = {
    "Round report": "Rundenbericht",
    "Final report": "Schlussbericht",
    "Round": "Runde",
    "of": "von",
    "Questions": "Fragen",
    "asks": "fragt",
    "Answer": "Antwort",
    "No questions this round.": "In dieser Runde wurden keine Fragen gestellt.",
    "Results": "Ergebnisse",
    "Player": "Spieler",
    "Tips": "Tipps",
    "Bonus": "Bonus",
    "Points": "Punkte",
    "Total": "Gesamt",
    "Rank": "Platz",
    "no turn": "kein Zug",
    "No turn: this player sent no turn this round, so no tips were scored.":
        "Kein Zug: Dieser Spieler hat in dieser Runde keinen Zug geschickt, also wurden keine "
        "Tipps gewertet.",
    "Standings after each round": "Stand nach jeder Runde",
    "Next deadline": "Nächster Abgabetermin",
    "Bonus points this round": "In dieser Runde gibt es Bonuspunkte",
    "The game has ended.": "Das Spiel ist beendet.",
    "Winner": "Sieger",
    "Winners": "Sieger",
    "No player was left in the game, so nobody wins.":
        "Es war kein Spieler mehr im Spiel, also gewinnt niemand.",
    "The distribution": "Die Verteilung",
    "nobody": "niemand",
    "Salt": "Salz",
    "Commitment published at the start": "Zu Beginn veröffentlichte Prüfsumme",
    "Check it yourself": "Selbst prüfen",
}
TABLES = {"de": _DE}


def add(lang: str, table: dict[str, str]) -> None:
    """Add an area's own words (web pages, mails) to the table of ``lang``."""
    TABLES.setdefault(lang, {}).update(table)


def translate(lang: str, text: str) -> str:
    if not text or lang == "en":
        return text
    found = catalogue(lang).gettext(text)
    return found if found != text else TABLES.get(lang, {}).get(text, text)


def ntranslate(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in ``lang`` (ngettext)."""
    return catalogue(lang).ngettext(singular, plural, n)


def translator(lang: str):
    """A one-argument function for templates: ``t("Round")``."""
    return lambda text: translate(lang, text)
