"""Questions: one placeholder A-G and one attribute, or two of different categories."""

from __future__ import annotations

from dataclasses import dataclass

from .deal import NOBODY, PLACEHOLDERS, Distribution
from .gems import (
    N_,
    Attribute,
    Category,
    GemError,
    RuleError,
    attribute,
    check_categories,
    parse_attributes,
    shown,
)
from .phrases import feminine, phrase


class QuestionError(RuleError):
    """An illegal question; the message says which rule it breaks."""


@dataclass(frozen=True)
class Question:
    """"How many <attributes> does <placeholder> hold?" Build with make_question."""

    placeholder: str
    attributes: tuple[Attribute, ...]

    @property
    def codes(self) -> str:
        """Compact storage form: ``E:BO``, ``A:3D`` (colour, size, kind order)."""
        return f"{self.placeholder}:" + "".join(a.code for a in self.attributes)

    @classmethod
    def from_codes(cls, text: str) -> Question:
        placeholder, _, codes = text.partition(":")
        return make_question(placeholder, [attribute(c) for c in codes])

    def answer(self, distribution: Distribution) -> int:
        """How many gems at the placeholder have every named attribute."""
        return sum(
            1 for gem in distribution.holding(self.placeholder)
            if all(gem.has(a) for a in self.attributes)
        )

    def text(self, lang: str = "en") -> str:
        """``How many blue opals does E hold?`` / ``Wie viele blaue Opale hat E?`` /
        ``¿Cuántos ópalos azules tiene E?``"""
        words = phrase(self.attributes, lang)
        if lang == "es":
            return f"¿{'Cuántas' if feminine(self.attributes, 'es') else 'Cuántos'} {words} " \
                   f"tiene {self.placeholder}?"
        if lang == "de":
            return f"Wie viele {words} hat {self.placeholder}?"
        return f"How many {words} does {self.placeholder} hold?"

    def short(self, lang: str = "en") -> str:
        """``E blue opal`` / ``E blaue Opale`` / ``E ópalos azules``: the turn-language form.

        German and Spanish say what is counted, as a native speaker writes it;
        English keeps the words of its examples. Each parses back to the question.
        """
        if lang in ("de", "es"):
            return f"{self.placeholder} {phrase(self.attributes, lang)}"
        return f"{self.placeholder} " + " ".join(a.word(lang) for a in self.attributes)


_ORDER = {Category.COLOUR: 0, Category.SIZE: 1, Category.KIND: 2}


def make_question(placeholder: str, attributes: list[Attribute]) -> Question:
    """A legal question, or QuestionError saying exactly which rule is broken."""
    place = placeholder.strip().upper()
    if place == NOBODY:
        raise QuestionError(N_("questions about the 36th gem (X) are not allowed; ask A-G"))
    if place not in PLACEHOLDERS:
        raise QuestionError(N_("'{word}' is not a placeholder; ask one of A-G"),
                            word=shown(placeholder))
    unique = sorted(set(attributes), key=lambda a: (_ORDER[a.category], a.order))
    if not unique:
        raise QuestionError(N_("a question names one attribute or two of different categories"))
    try:
        check_categories(unique)
    except GemError as exc:
        raise QuestionError(N_("two values of one {category}: {first} and {second}; name one "
                               "value per category"), **exc.params) from None
    if len(unique) > 2:
        raise QuestionError(N_("three attributes name a single gem; ask about one or two"))
    return Question(place, tuple(unique))


def parse_question(text: str) -> Question:
    """``E blue opal``, ``E: blau Opal``, ``G 1``, ``A R``... -> Question.

    The first word is the placeholder, so ``D D`` asks for diamonds at D.
    """
    head, _, rest = text.strip().partition(" ")
    place = head.strip(":,")
    if len(place) != 1:
        raise QuestionError(N_("'{word}' is not a placeholder; start with one of A-G"),
                            word=shown(head))
    try:
        attrs = parse_attributes(rest, letters=True)
    except GemError as exc:
        raise QuestionError(exc.message_id, **exc.params) from None
    return make_question(place, attrs)
