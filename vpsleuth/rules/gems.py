"""The 36 gems, their attributes, and how players may write them.

A gem is one colour, one kind and one size. Its short code is colour + kind +
size (``RD1`` is the red diamond solitaire). Players may write gems and
attributes as codes, English, German or Spanish words, sizes as 1/2/3, I/II/III or words,
in any order and letter case; the service always shows one canonical form per
language.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum

from .phrases import phrase

LANGUAGES = ("en", "de", "es")


def N_(text: str) -> str:  # noqa: N802  (gettext's name; the rules stay free of i18n)
    """Mark ``text`` for the catalogue; the edge translates it (vpsleuth/i18n/)."""
    return text


class Category(Enum):
    COLOUR = "colour"
    KIND = "kind"
    SIZE = "size"

    def word(self, lang: str = "en") -> str:
        return _CATEGORY_WORDS[lang][self]


_CATEGORY_WORDS = {
    "en": {Category.COLOUR: "colour", Category.KIND: "kind", Category.SIZE: "size"},
    "de": {Category.COLOUR: "Farbe", Category.KIND: "Art", Category.SIZE: "Größe"},
    "es": {Category.COLOUR: "color", Category.KIND: "tipo", Category.SIZE: "tamaño"},
}


@dataclass(frozen=True, order=True)
class Attribute:
    """One value of one category, e.g. the colour red (code ``R``)."""

    category: Category
    code: str

    def __hash__(self) -> int:
        return hash(self.code)  # the codes of all categories differ; enums hash slowly

    @property
    def order(self) -> int:
        return _ORDER[self.code]

    def word(self, lang: str = "en") -> str:
        return _WORDS[lang][self.code]

    def feminine(self) -> str:
        """The Spanish colour after a feminine noun (``perla roja``); else ``word("es")``."""
        return _FEMININE.get(self.code, self.word("es"))

    def __str__(self) -> str:
        return self.word("en")

    def __repr__(self) -> str:
        return f"attribute({self.code!r})"


_CODES = {
    Category.COLOUR: ("R", "B", "G", "Y"),
    Category.KIND: ("D", "P", "O"),
    Category.SIZE: ("1", "2", "3"),
}
_ORDER = {code: i for codes in _CODES.values() for i, code in enumerate(codes)}
# Canonical words per language (singular; German sizes are the seed's nouns).
_WORDS = {
    "en": {
        "R": "red", "B": "blue", "G": "green", "Y": "yellow",
        "D": "diamond", "P": "pearl", "O": "opal",
        "1": "solitaire", "2": "pair", "3": "cluster",
    },
    "de": {
        "R": "rot", "B": "blau", "G": "grün", "Y": "gelb",
        "D": "Diamant", "P": "Perle", "O": "Opal",
        "1": "Einer", "2": "Zweier", "3": "Dreier",
    },
    "es": {
        "R": "rojo", "B": "azul", "G": "verde", "Y": "amarillo",
        "D": "diamante", "P": "perla", "O": "ópalo",
        "1": "solitario", "2": "pareja", "3": "grupo",
    },
}
# Spanish colours agree with the kind: "perla roja", "ópalo rojo".
_FEMININE = {"R": "roja", "Y": "amarilla"}
_ROMAN = {"1": "I", "2": "II", "3": "III"}

COLOURS = tuple(Attribute(Category.COLOUR, c) for c in _CODES[Category.COLOUR])
KINDS = tuple(Attribute(Category.KIND, c) for c in _CODES[Category.KIND])
SIZES = tuple(Attribute(Category.SIZE, c) for c in _CODES[Category.SIZE])
ATTRIBUTES = COLOURS + KINDS + SIZES
_BY_CODE = {a.code: a for a in ATTRIBUTES}


def attribute(code: str) -> Attribute:
    """The attribute with this one-character code (``R``, ``D``, ``1``...)."""
    return _BY_CODE[code.upper()]


@dataclass(frozen=True)
class Gem:
    """One of the 36 gems."""

    colour: Attribute
    kind: Attribute
    size: Attribute

    def __post_init__(self) -> None:
        # Gems key every tip dict: hash the code once, not three nested dataclasses each time.
        object.__setattr__(self, "_hash", hash(self.code))

    def __hash__(self) -> int:
        return self._hash

    @property
    def code(self) -> str:
        return self.colour.code + self.kind.code + self.size.code

    @property
    def attributes(self) -> tuple[Attribute, Attribute, Attribute]:
        return (self.colour, self.kind, self.size)

    def has(self, attr: Attribute) -> bool:
        return attr in self.attributes

    def name(self, lang: str = "en") -> str:
        """The canonical long name: ``red diamond solitaire`` / ``Diamant rot I`` (the
        seed's way) / ``diamante rojo solitario``, ``perla roja en grupo``."""
        if lang == "es":
            return phrase(self.attributes, "es", plural=False)
        if lang == "de":
            return f"{self.kind.word('de')} {self.colour.word('de')} {_ROMAN[self.size.code]}"
        return f"{self.colour.word()} {self.kind.word()} {self.size.word()}"

    @property
    def sort_key(self) -> tuple[int, int, int]:
        return (self.kind.order, self.size.order, self.colour.order)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"GEM_BY_CODE[{self.code!r}]"


# The information sheet order: by kind, then size, then colour.
GEMS: tuple[Gem, ...] = tuple(
    Gem(colour, kind, size) for kind in KINDS for size in SIZES for colour in COLOURS
)
GEM_BY_CODE = {g.code: g for g in GEMS}


def in_words(value: object, lang: str = "en") -> str:
    """A message parameter in ``lang``: an attribute or category by its word."""
    word = getattr(value, "word", None)
    return word(lang) if callable(word) else str(value)


class RuleError(ValueError):
    """A broken rule as a message id (English, marked N_, with {named} places) and
    its parameters; ``str()`` is the English text, the edge translates the id."""

    def __init__(self, message: str, /, **params: object):
        self.message_id = message
        self.params = params
        super().__init__(self.text("en"))

    def text(self, lang: str, translate=lambda lang, text: text) -> str:
        """The message in ``lang``; ``translate(lang, msgid)`` comes from the edge."""
        return translate(lang, self.message_id).format(
            **{k: in_words(v, lang) for k, v in self.params.items()})


class GemError(RuleError):
    """Text that does not name a gem or attributes; the message says why."""


def shown(text: str, limit: int = 40) -> str:
    """Text safe to quote back in an error: control characters escaped, long text cut."""
    safe = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 256
                   else f"\\u{ord(c):04x}" for c in text)
    return safe if len(safe) <= limit else safe[: limit - 1] + "…"


def _fold(word: str) -> str:
    # NFC first: mail clients may send "ü" decomposed as "u" + combining diaeresis.
    word = unicodedata.normalize("NFC", word).lower().replace("ß", "ss")
    for umlaut, plain in (("ä", "ae"), ("ö", "oe"), ("ü", "ue")):
        word = word.replace(umlaut, plain)
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode()


def _synonyms() -> dict[str, str]:
    table = {
        "R": "red rot rote roter rotes roten rotem rojo rojos roja rojas",
        "B": "blue blau blaue blauer blaues blauen blauem azul azules",
        "G": "green gruen gruene gruener gruenes gruenen gruenem verde verdes",
        "Y": "yellow gelb gelbe gelber gelbes gelben gelbem amarillo amarillos amarilla "
             "amarillas",
        "D": "diamond diamonds diamant diamanten diamante diamantes",
        "P": "pearl pearls perle perlen perla perlas",
        "O": "opal opals opale opalen opalo opalos",  # ópalo: accents are folded away
        "1": "1 i solitaire solitaires single singles einer one eins solitario solitarios "
             "solitaria solitarias uno",
        "2": "2 ii pair pairs zweier two zwei pareja parejas dos",
        "3": "3 iii cluster clusters dreier three drei grupo grupos tres",
    }
    return {word: code for code, words in table.items() for word in words.split()}


_WORD_TO_CODE = _synonyms()
# Codes run together ("rd1", "1dr", "bo"); a letter alone only in questions (RULES.md 1).
_CODE_TOKEN = re.compile(r"^[rbgydpo123]{2,3}$")
_LETTER = re.compile(r"^[rbgydpo]$")


def _names_no_size(token: str) -> bool:
    """A colour and a kind code with a number that is no size: ``rd4``, ``0bp``, ``go12``."""
    letters = [c for c in token if not c.isdigit()]
    return (len(letters) == 2 and len(token) > 2 and any(c in "rbgy" for c in letters)
            and any(c in "dpo" for c in letters))


_SPLIT = re.compile(r"[\s\-_/.]+")
# Fillers people write around attributes ("the red opal", "Diamant, rot").
_FILLERS = {"the", "a", "an", "der", "die", "das", "ein", "eine", "gem", "gems", "stein",
            "steine", "edelstein", "edelsteine", "and", "und", "of",
            "el", "la", "los", "las", "un", "una", "gema", "gemas", "de", "en"}


def parse_attributes(text: str, *, letters: bool = False) -> list[Attribute]:
    """Every attribute named in ``text``, in the order written.

    ``letters``: a colour or kind may also be written by its code letter alone
    (``R``, ``D``), as questions allow. Raises GemError naming the first word
    that is not an attribute.
    """
    attrs: list[Attribute] = []
    for raw in _SPLIT.split(text.strip().strip(",;")):
        if not raw:
            continue
        token = _fold(raw.strip(",;:()"))
        if not token or token in _FILLERS:
            continue
        code = _WORD_TO_CODE.get(token)
        if code is not None:
            attrs.append(_BY_CODE[code])
        elif (_CODE_TOKEN.match(token) and len(set(token)) == len(token)
              or letters and _LETTER.match(token)):
            attrs.extend(_BY_CODE[c.upper()] for c in token)
        elif _names_no_size(token):
            raise GemError(N_("no gem {code}: sizes are 1-3"),
                           code=shown(raw.strip(",;:()").upper()))
        else:
            raise GemError(N_("'{word}' is not a colour, kind or size"), word=shown(raw))
    return attrs


def check_categories(attrs: list[Attribute]) -> None:
    """Raise GemError if two attributes share a category (``red blue``)."""
    seen: dict[Category, Attribute] = {}
    for a in attrs:
        if a.category in seen and seen[a.category] != a:
            raise GemError(N_("two values of one {category}: {first} and {second}"),
                           category=a.category, first=seen[a.category], second=a)
        seen[a.category] = a


_NAMES_NO = {
    1: N_("'{text}' names no {first}"),
    2: N_("'{text}' names no {first} and no {second}"),
    3: N_("'{text}' names no {first} and no {second} and no {third}"),
}


def parse_gem(text: str) -> Gem:
    """The gem named by ``text``: ``RD1``, ``red diamond solitaire``,
    ``Diamant rot I``, ``1 rd`` ... Raises GemError saying what is missing."""
    if not text.strip():
        raise GemError(N_("no gem given"))
    attrs = parse_attributes(text)
    check_categories(attrs)
    found = {a.category: a for a in attrs}
    missing = dict(zip(("first", "second", "third"),
                       (c for c in Category if c not in found), strict=False))
    if missing:
        raise GemError(_NAMES_NO[len(missing)], text=shown(text.strip()), **missing)
    return Gem(found[Category.COLOUR], found[Category.KIND], found[Category.SIZE])
