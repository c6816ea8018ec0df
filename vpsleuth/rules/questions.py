"""Questions: one placeholder A-G and one attribute, or two of different categories."""

from __future__ import annotations

from dataclasses import dataclass

from .deal import NOBODY, PLACEHOLDERS, Distribution
from .gems import (
    Attribute,
    Category,
    GemError,
    attribute,
    check_categories,
    parse_attributes,
    shown,
)


class QuestionError(ValueError):
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
        """``How many blue opals does E hold?`` / ``Wie viele blaue Opale hat E?``"""
        if lang == "de":
            return f"Wie viele {_german_phrase(self.attributes)} hat {self.placeholder}?"
        return f"How many {_english_phrase(self.attributes)} does {self.placeholder} hold?"

    def short(self, lang: str = "en") -> str:
        """``E: blue opal`` / ``E: blau Opal``: the turn-language form."""
        return f"{self.placeholder} " + " ".join(a.word(lang) for a in self.attributes)


_ORDER = {Category.COLOUR: 0, Category.SIZE: 1, Category.KIND: 2}


def make_question(placeholder: str, attributes: list[Attribute]) -> Question:
    """A legal question, or QuestionError saying exactly which rule is broken."""
    place = placeholder.strip().upper()
    if place == NOBODY:
        raise QuestionError("questions about the 36th gem (X) are not allowed; ask A-G")
    if place not in PLACEHOLDERS:
        raise QuestionError(f"'{shown(placeholder)}' is not a placeholder; ask one of A-G")
    unique = sorted(set(attributes), key=lambda a: (_ORDER[a.category], a.order))
    if not unique:
        raise QuestionError("a question names one attribute or two of different categories")
    try:
        check_categories(unique)
    except GemError as exc:
        raise QuestionError(f"{exc}; name one value per category") from None
    if len(unique) > 2:
        raise QuestionError("three attributes name a single gem; ask about one or two")
    return Question(place, tuple(unique))


def parse_question(text: str) -> Question:
    """``E blue opal``, ``E: blau Opal``, ``G 1``, ``A R``... -> Question.

    The first word is the placeholder, so ``D D`` asks for diamonds at D.
    """
    head, _, rest = text.strip().partition(" ")
    place = head.strip(":,")
    if len(place) != 1:
        raise QuestionError(f"'{shown(head)}' is not a placeholder; start with one of A-G")
    try:
        attrs = parse_attributes(rest, letters=True)
    except GemError as exc:
        raise QuestionError(str(exc)) from None
    return make_question(place, attrs)


_EN_PLURAL = {"D": "diamonds", "P": "pearls", "O": "opals",
              "1": "solitaires", "2": "pairs", "3": "clusters"}
_DE_PLURAL = {"D": "Diamanten", "P": "Perlen", "O": "Opale"}
_DE_SIZE = {"1": "Einer", "2": "Zweier", "3": "Dreier"}


def _english_phrase(attrs: tuple[Attribute, ...]) -> str:
    by = {a.category: a for a in attrs}
    words = [by[Category.COLOUR].word()] if Category.COLOUR in by else []
    size, kind = by.get(Category.SIZE), by.get(Category.KIND)
    if kind:
        words += ([size.word()] if size else []) + [_EN_PLURAL[kind.code]]
    else:
        words.append(_EN_PLURAL[size.code] if size else "gems")
    return " ".join(words)


def _german_phrase(attrs: tuple[Attribute, ...]) -> str:
    by = {a.category: a for a in attrs}
    words = [by[Category.COLOUR].word("de") + "e"] if Category.COLOUR in by else []
    size, kind = by.get(Category.SIZE), by.get(Category.KIND)
    if kind and size:
        words.append(f"{_DE_SIZE[size.code]}-{_DE_PLURAL[kind.code]}")
    elif kind:
        words.append(_DE_PLURAL[kind.code])
    else:
        words.append(_DE_SIZE[size.code] if size else "Steine")
    return " ".join(words)
