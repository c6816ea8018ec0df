"""The few words the service shows, in English and German.

A table rather than gettext catalogues: the texts are few and short, and a
table needs no compile step at install time.
"""

from __future__ import annotations

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
    return TABLES.get(lang, {}).get(text, text)


def translator(lang: str):
    """A one-argument function for templates: ``t("Round")``."""
    return lambda text: translate(lang, text)
