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
        if lang == "es":
            return _spanish_question(self.placeholder, self.attributes)
        if lang == "de":
            return f"Wie viele {_german_phrase(self.attributes)} hat {self.placeholder}?"
        return f"How many {_english_phrase(self.attributes)} does {self.placeholder} hold?"

    def short(self, lang: str = "en") -> str:
        """``E blue opal`` / ``E blau Opal`` / ``E ópalo azul``: the turn-language form."""
        if lang == "es":
            return f"{self.placeholder} {_spanish_short(self.attributes)}"
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


# Spanish: plural nouns with their gender; colours and "solitario" agree with the noun.
_ES_NOUN = {"D": ("diamantes", False), "P": ("perlas", True), "O": ("ópalos", False),
            "1": ("solitarios", False), "2": ("parejas", True), "3": ("grupos", False)}
_ES_PLURAL = {"R": ("rojos", "rojas"), "B": ("azules", "azules"),
              "G": ("verdes", "verdes"), "Y": ("amarillos", "amarillas")}
_ES_SIZE = {"1": ("solitarios", "solitarias"), "2": ("en pareja",) * 2, "3": ("en grupo",) * 2}


def _spanish_question(place: str, attrs: tuple[Attribute, ...]) -> str:
    """``¿Cuántas perlas rojas tiene E?``, ``¿Cuántos diamantes en grupo tiene A?``"""
    by = {a.category: a for a in attrs}
    colour, size, kind = (by.get(c) for c in (Category.COLOUR, Category.SIZE, Category.KIND))
    if kind:
        noun, feminine = _ES_NOUN[kind.code]
        words = [noun] + ([_ES_SIZE[size.code][feminine]] if size else [])
    elif size:
        noun, feminine = _ES_NOUN[size.code]
        words = [noun]
    else:
        noun, feminine = "gemas", True
        words = [noun]
    if colour:
        words.insert(1, _ES_PLURAL[colour.code][feminine])
    return f"¿{'Cuántas' if feminine else 'Cuántos'} {' '.join(words)} tiene {place}?"


def _spanish_short(attrs: tuple[Attribute, ...]) -> str:
    """``ópalo azul``, ``perla roja``, ``diamante grupo``: kind first, colour agreeing."""
    by = {a.category: a for a in attrs}
    kind, colour = by.get(Category.KIND), by.get(Category.COLOUR)
    words = [kind.word("es")] if kind else []
    if colour:
        words.append(colour.feminine() if kind and kind.code == "P" else colour.word("es"))
    if Category.SIZE in by:
        words.append(by[Category.SIZE].word("es"))
    return " ".join(words)
