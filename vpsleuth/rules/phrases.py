"""Attributes as a noun phrase a native reader would write: "blaue Opale", "perla roja".

One to three attribute codes (a colour R/B/G/Y, a kind D/P/O, a size 1/2/3) make
one phrase, singular or plural, in English, German or Spanish. The questions,
the reports and the information sheet all say attributes through ``phrase``.

German declines the colour as an adjective without article (``roter Opal``,
``rote Perle``, ``rote Opale``) and joins a size to a kind as the seed does
(``Dreier-Diamanten``). Spanish puts the noun first and makes the colour and
``solitario`` agree with it (``perlas rojas solitarias``); pair and cluster
after a kind are ``en pareja`` and ``en grupo``. Without a kind, the size is
the noun (``parejas rojas``, ``rote Zweier``); without either, the gem is
(``gemas verdes``, ``grüne Steine``).

Pure: codes in, words out; the rules' Attribute objects are taken too (by ``.code``).
"""

from __future__ import annotations

from collections.abc import Iterable

_COLOURS, _KINDS, _SIZES = "RBGY", "DPO", "123"

_EN_COLOUR = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}
_EN_KIND = {"D": "diamond", "P": "pearl", "O": "opal"}
_EN_SIZE = {"1": "solitaire", "2": "pair", "3": "cluster"}

_DE_COLOUR = {"R": "rot", "B": "blau", "G": "grün", "Y": "gelb"}
# German nouns: singular, plural, feminine.
_DE_NOUN = {"D": ("Diamant", "Diamanten", False), "P": ("Perle", "Perlen", True),
            "O": ("Opal", "Opale", False), "": ("Stein", "Steine", False),
            "1": ("Einer", "Einer", False), "2": ("Zweier", "Zweier", False),
            "3": ("Dreier", "Dreier", False)}

# Spanish nouns: singular, plural, feminine; colours and sizes: m sg, f sg, m pl, f pl.
_ES_NOUN = {"D": ("diamante", "diamantes", False), "P": ("perla", "perlas", True),
            "O": ("ópalo", "ópalos", False), "": ("gema", "gemas", True),
            "1": ("solitario", "solitarios", False), "2": ("pareja", "parejas", True),
            "3": ("grupo", "grupos", False)}
_ES_COLOUR = {"R": ("rojo", "roja", "rojos", "rojas"), "B": ("azul", "azul", "azules", "azules"),
              "G": ("verde", "verde", "verdes", "verdes"),
              "Y": ("amarillo", "amarilla", "amarillos", "amarillas")}
_ES_SIZE = {"1": ("solitario", "solitaria", "solitarios", "solitarias"),
            "2": ("en pareja",) * 4, "3": ("en grupo",) * 4}


def _split(attributes: Iterable[object]) -> tuple[str, str, str]:
    codes = [str(getattr(a, "code", a)).upper() for a in attributes]
    colour, kind, size = ([c for c in codes if c in group] for group in (_COLOURS, _KINDS,
                                                                          _SIZES))
    if len(codes) != len(colour) + len(kind) + len(size) or max(
            len(colour), len(kind), len(size), 1) > 1:
        raise ValueError(f"not one value per category: {codes}")
    return (colour or [""])[0], (kind or [""])[0], (size or [""])[0]


def phrase(attributes: Iterable[object], lang: str = "en", plural: bool = True) -> str:
    """The attributes as a noun phrase: ``E:BO`` -> ``blaue Opale`` / ``ópalos azules``.

    ``attributes``: codes (``"BO"``, ``["3", "D"]``) or Attribute objects, in any order.
    """
    colour, kind, size = _split(attributes)
    if lang == "de":
        return _german(colour, kind, size, plural)
    if lang == "es":
        return _spanish(colour, kind, size, plural)
    return _english(colour, kind, size, plural)


def feminine(attributes: Iterable[object], lang: str) -> bool:
    """Whether the phrase's noun is feminine in ``lang`` (Spanish "¿Cuántas ...?")."""
    colour, kind, size = _split(attributes)
    nouns = {"de": _DE_NOUN, "es": _ES_NOUN}.get(lang)
    if nouns is None:
        return False
    return nouns[kind or size][2]


def _english(colour: str, kind: str, size: str, plural: bool) -> str:
    s = "s" if plural else ""
    words = [_EN_COLOUR[colour]] if colour else []
    if kind:
        words += ([_EN_SIZE[size]] if size else []) + [_EN_KIND[kind] + s]
    else:
        words.append(_EN_SIZE[size] + s if size else "gem" + s)
    return " ".join(words)


def _german(colour: str, kind: str, size: str, plural: bool) -> str:
    singular, plural_form, female = _DE_NOUN[kind or size]
    noun = plural_form if plural else singular
    if kind and size:
        noun = f"{_DE_NOUN[size][0]}-{noun}"
    if not colour:
        return noun
    # No article: strong declension, nominative (roter Opal, rote Perle, rote Opale).
    ending = "e" if plural or female else "er"
    return f"{_DE_COLOUR[colour]}{ending} {noun}"


def _spanish(colour: str, kind: str, size: str, plural: bool) -> str:
    singular, plural_form, female = _ES_NOUN[kind or size]
    form = 2 * plural + female
    words = [plural_form if plural else singular]
    if colour:
        words.append(_ES_COLOUR[colour][form])
    if kind and size:
        words.append(_ES_SIZE[size][form])
    return " ".join(words)
