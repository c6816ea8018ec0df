"""The turn form: a question picker and a tip grid, to and from the turn language.

The form never changes a turn itself: it writes the turn language and hands
that text to the same service every other entrance uses.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from ...i18n import N_, translate
from ...orders import format_turn
from ...rules import (
    COLOURS,
    GEM_BY_CODE,
    GEMS,
    KINDS,
    LOCATIONS,
    PLACEHOLDERS,
    SIZES,
    Question,
    QuestionError,
    Turn,
    make_question,
)
from ...rules.gems import attribute

CATEGORY_FIELDS = (("colour", COLOURS), ("kind", KINDS), ("size", SIZES))
_WORDS = {"en": ("QUESTION", "TIP", "DROP", "NONE"), "de": ("FRAGE", "TIPP", "STREICHE", "KEINE"),
          "es": ("PREGUNTA", "APUESTA", "QUITA", "NINGUNA")}
# The text box's examples, in the reader's own keywords and gem words (each line parses).
EXAMPLE_LINES = {
    "en": ("QUESTION E blue opal", "TIP A RD1, BP2", "TIP X yellow opal cluster", "DROP GO3",
           "REPEAT", "QUESTION NONE"),
    "de": ("FRAGE E blaue Opale", "TIPP A RD1, BP2", "TIPP X Opal gelb III", "STREICHE GO3",
           "WIEDERHOLE", "FRAGE KEINE"),
    "es": ("PREGUNTA E ópalos azules", "APUESTA A RD1, BP2", "APUESTA X ópalo amarillo en grupo",
           "QUITA GO3", "REPITE", "PREGUNTA NINGUNA"),
}


@dataclass
class TurnForm:
    """What the form shows: a question (placeholder + up to three selects) and tips."""

    placeholder: str = ""
    colour: str = ""
    kind: str = ""
    size: str = ""
    tips: dict[str, str] = field(default_factory=dict)  # gem code -> A-G or X
    errors: dict[str, str] = field(default_factory=dict)  # field -> message

    @classmethod
    def from_turn(cls, turn: Turn, tips: Mapping | None = None) -> TurnForm:
        """The form showing a standing turn (``tips``: other tips, e.g. last round's)."""
        form = cls(tips={g.code: loc for g, loc in (turn.tips if tips is None else tips).items()})
        if turn.question is not None:
            form.placeholder = turn.question.placeholder
            for attr in turn.question.attributes:
                setattr(form, attr.category.value, attr.code)
        return form

    @classmethod
    def from_post(cls, data: Mapping[str, str], lang: str = "en") -> TurnForm:
        """The form as posted; ``errors`` says what cannot be a turn, field by field."""
        form = cls(placeholder=data.get("q_place", "").strip().upper())
        for name, values in CATEGORY_FIELDS:
            value = data.get(f"q_{name}", "").strip().upper()
            if value and value not in {a.code for a in values}:
                form.errors[f"q_{name}"] = translate(lang, "not a value of this category")
                value = ""
            setattr(form, name, value)
        for gem in GEMS:
            value = data.get(f"tip-{gem.code}", "").strip().upper()
            if value in LOCATIONS:
                form.tips[gem.code] = value
            elif value:
                form.errors[f"tip-{gem.code}"] = translate(
                    lang, "tips go to A-G or X (nobody)")
        form._check_question(lang)
        return form

    def shows(self, turn: Turn) -> bool:
        """Whether the form shows exactly ``turn`` (nothing was changed in it)."""
        other = TurnForm.from_turn(turn)
        return (self.placeholder, self.attributes, self.tips) == (
            other.placeholder, other.attributes, other.tips)

    def fill_in(self, tips: Mapping) -> tuple[int, int]:
        """Add ``tips`` (e.g. last round's) for gems without a pick; picks made stay.

        Returns (gems filled in, picks kept that differ from ``tips``).
        """
        filled = kept = 0
        for gem, location in tips.items():
            if gem.code not in self.tips:
                self.tips[gem.code] = location
                filled += 1
            elif self.tips[gem.code] != location:
                kept += 1
        return filled, kept

    @property
    def attributes(self) -> list[str]:
        return [code for code in (self.colour, self.kind, self.size) if code]

    def question(self) -> Question | None:
        """The question the form asks (None: no question); call after from_post."""
        if not self.placeholder:
            return None
        return make_question(self.placeholder, [attribute(c) for c in self.attributes])

    def _check_question(self, lang: str) -> None:
        attrs = self.attributes
        if self.placeholder and self.placeholder not in PLACEHOLDERS:
            message = N_("questions go to one of the placeholders A-G")
        elif not self.placeholder and attrs:
            message = ("choose a placeholder A-G for your question, "
                       "or set colour, kind and size to 'any'")
        elif self.placeholder and not attrs:
            message = N_("choose one attribute, or two of different categories, for your question")
        elif len(attrs) > 2:
            message = ("a question names at most two attributes: "
                       "set one of colour, kind and size to 'any'")
        else:
            try:
                self.question()
            except QuestionError as exc:
                message = str(exc)
            else:
                return
        self.errors["question"] = translate(lang, message)

    def to_text(self, standing: Turn, lang: str = "en") -> str:
        """The turn language for what the form shows, given the standing turn.

        A question line (QUESTION NONE when a standing question is cleared),
        the tips per location, and DROP for gems whose standing tip was removed.
        """
        ask, tip, drop, none = _WORDS.get(lang, _WORDS["en"])
        question = self.question()
        lines = []
        if question is not None:
            lines.append(f"{ask} {question.short(lang)}")
        elif standing.question is not None:
            lines.append(f"{ask} {none}")
        for location in LOCATIONS:
            gems = [g.code for g in GEMS if self.tips.get(g.code) == location]
            if gems:
                lines.append(f"{tip} {location} " + ", ".join(gems))
        dropped = [g.code for g in GEMS if g in standing.tips and g.code not in self.tips]
        if dropped:
            lines.append(f"{drop} " + ", ".join(dropped))
        return "\n".join(lines) + "\n" if lines else ""


def example_lines(lang: str) -> tuple[str, ...]:
    """Example lines of the turn language for the form, in ``lang``'s keywords."""
    return EXAMPLE_LINES.get(lang, EXAMPLE_LINES["en"])


def basis_of(turn: Turn) -> str:
    """A short fingerprint of a standing turn: the form notices a change made elsewhere."""
    return hashlib.sha256(format_turn(turn.question, turn.tips).encode()).hexdigest()[:16]


def gem_rows() -> list[tuple[str, str, list]]:
    """The tip grid's sections: (kind code, size code, the four gems by colour)."""
    return [(k.code, s.code, [GEM_BY_CODE[c.code + k.code + s.code] for c in COLOURS])
            for k in KINDS for s in SIZES]
