"""Write a standing turn back in the turn language (confirmations, templates)."""

from __future__ import annotations

from collections.abc import Mapping

from ..rules import LOCATIONS, Gem, Question

_WORDS = {
    "en": {"question": "QUESTION", "tip": "TIP", "none": "NONE"},
    "de": {"question": "FRAGE", "tip": "TIPP", "none": "KEINE"},
    "es": {"question": "PREGUNTA", "tip": "APUESTA", "none": "NINGUNA"},
}


def format_turn(question: Question | None, tips: Mapping[Gem, str], lang: str = "en") -> str:
    """The turn as text that parses back to the same question and tips.

    Tips are grouped per location, gems as codes, in information-sheet order.
    """
    words = _WORDS.get(lang, _WORDS["en"])
    lines = [f"{words['question']} " + (question.short(lang) if question else words["none"])]
    for location in LOCATIONS:
        gems = sorted((g for g, loc in tips.items() if loc == location), key=lambda g: g.sort_key)
        if gems:
            lines.append(f"{words['tip']} {location} " + ", ".join(g.code for g in gems))
    return "\n".join(lines) + "\n"
