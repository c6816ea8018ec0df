"""Sign-offs below a turn: "Grüße", "Cheers, Ada", a name, a phone number, a disclaimer.

Most people sign their mails, and many mail programs add a signature by
themselves. A turn is all or nothing, so one such line would cost the player
the whole turn. This module finds the trailing block that is safe to set aside:

* it comes after the last line that looks like a turn line: a command, or a
  line holding a gem (``RD1``, ``red``, ``Perle``; ``RD4`` counts too), a
  location (``A``-``G``, ``X``, nobody, niemand, nadie) or a near-miss of a
  keyword (``TPI``, ``STRIECHE``, ``Frgae``), which is a turn line gone wrong;
* so no line of it holds any of these: refusing such a line says what is wrong
  with it, where setting it aside would hide it.

Whether the turn lines above are right does not matter: ``STRIECHE YO3`` then
"Gruß" and "Bernd" is refused for its first line alone, and once that line is
fixed the same two lines are set aside. A line that is not a command
*between* turn lines is left for the parser, which refuses the turn; so is a
greeting above the turn. Comments (``#``) stay in the turn. The caller reports
the lines set aside word for word.

Pure: the turn language and the gems only; the mail pipeline decides where it
applies (mail only; see docs/mail-inbound.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..rules import GemError, parse_attributes, parse_gem
from ..rules.gems import Category
from .keywords import KEYWORDS, near_miss

_END_WORDS = frozenset({"end", "ende", "fin"})
_LOCATION_WORDS = frozenset({"nobody", "niemand", "nadie"})
_LOCATION_LETTERS = frozenset("ABCDEFGX")
_FIRST_WORD = re.compile(r"^\s*([^\W\d_]+)")
_LEADING = re.compile(r"^[^\w#]+")
# A gem code, valid or not (RD1, 1dr, RD4, BP0): two gem letters and a digit, any order.
_CODE_LIKE = re.compile(r"^(?=(?:.*[rbgydpo]){2})(?=.*\d)[rbgydpo\d]{3}$", re.IGNORECASE)


@dataclass(frozen=True)
class SignOff:
    """A turn text split from its sign-off: ``turn`` goes to the parser, ``lines``
    (word for word, without surrounding blanks) are reported as ignored."""

    turn: str
    lines: tuple[str, ...] = ()


def first_word(line: str) -> str:
    """The first word of a line, as the parser reads it ('' if none)."""
    m = _FIRST_WORD.match(line)
    return m.group(1) if m else ""


def is_ignored(line: str) -> bool:
    """Blank, a # comment or a // line: the parser skips it."""
    body = line.split("#", 1)[0].strip()
    return not body or body.startswith("//")


def is_command(line: str) -> bool:
    """The line starts with a keyword of the turn language (valid or not after it)."""
    return not is_ignored(line) and first_word(line).lower() in KEYWORDS


def _holds_gem(token: str) -> bool:
    bare = token.strip(",;:.!?()[]{}\"'")
    if _CODE_LIKE.match(bare):
        return True
    if not bare.isalpha() or len(bare) < 3:
        return False
    try:
        attrs = parse_attributes(bare)
    except GemError:
        return False
    if len(attrs) == 1:
        return attrs[0].category in (Category.COLOUR, Category.KIND)
    try:
        parse_gem(bare)
    except GemError:
        return False
    return True


def _holds_location(token: str) -> bool:
    bare = token.strip(",;:")
    return bare in _LOCATION_LETTERS or bare.lower() in _LOCATION_WORDS


def looks_like_turn(line: str) -> bool:
    """A command, a gem, a location or a near-miss of a keyword: a turn line, or one
    gone wrong. Anything else (a name, a greeting, a phone number) is not."""
    if is_ignored(line):
        return False
    if is_command(line):
        return True
    body = line.split("#", 1)[0]
    tokens = body.split()
    if any(_holds_gem(t) or _holds_location(t) for t in tokens):
        return True
    word = first_word(_LEADING.sub("", body))
    return bool(word) and near_miss(word) is not None


def split_signoff(text: str) -> SignOff:
    """Set aside a trailing sign-off; the text is returned whole when there is none.

    The sign-off is what follows the last line that looks like a turn line,
    right or wrong, when there is such a line. Lines after END are ignored by
    the parser, so nothing is set aside once END has been read. The sign-off
    lines are removed (comments among them stay); what remains keeps its line
    numbers.
    """
    lines = text.split("\n")
    if any(first_word(line).lower() in _END_WORDS for line in lines if is_command(line)):
        return SignOff(text)
    turnish = [i for i, line in enumerate(lines) if looks_like_turn(line)]
    if not turnish:
        return SignOff(text)
    last = turnish[-1]
    tail = lines[last + 1:]
    signoff = [line for line in tail if not is_ignored(line)]
    if not signoff:
        return SignOff(text)
    kept = lines[:last + 1] + [line for line in tail if is_ignored(line)]
    while len(kept) > last + 1 and not kept[-1].strip():
        kept.pop()
    return SignOff("\n".join(kept), tuple(line.strip() for line in signoff))


# Greetings a mail signs off with, in the three languages, lower case, without punctuation.
_GREETINGS = frozenset({
    "cheers", "regards", "best", "best regards", "kind regards", "best wishes", "thanks",
    "thank you", "many thanks", "bye", "ciao", "love", "yours", "all the best", "see you",
    "gruß", "grüße", "gruss", "grüsse", "viele grüße", "liebe grüße", "beste grüße",
    "herzliche grüße", "schöne grüße", "lg", "vg", "mfg", "bis bald", "tschüss", "danke",
    "saludos", "un saludo", "muchos saludos", "un abrazo", "abrazos", "atentamente",
    "gracias", "hasta pronto", "nos vemos", "besos",
})
_TRIM = " \t,.;:!-–—~*"


def _said(line: str) -> str:
    return " ".join(line.strip(_TRIM).lower().split())


def _names_writer(line: str, names: set[str]) -> bool:
    said = _said(line)
    return said in names or any(said.startswith(g) and said[len(g):].strip(_TRIM) in names
                                for g in _GREETINGS)


def _signs_off(line: str, names: set[str]) -> bool:
    return _said(line) in _GREETINGS or _names_writer(line, names)


def strip_post_signoff(text: str, names: tuple[str, ...]) -> str:
    """A mailed board post without its closing greeting and name ("Cheers,\\nBen").

    Only a last paragraph of at most three lines, each a greeting of the three
    languages, the writer's name (``names``) or both, with the name in one of them,
    is removed, and only when something remains above it: "Thanks!" or "Saludos"
    without a name is part of what the writer says.
    """
    lines = text.rstrip().split("\n")
    known = {" ".join(n.lower().split()) for n in names if n}
    end = len(lines)
    start = end
    while start > 0 and lines[start - 1].strip() and end - start < 4:
        start -= 1
    tail = lines[start:end]
    if (not tail or len(tail) > 3 or not all(_signs_off(line, known) for line in tail)
            or not any(_names_writer(line, known) for line in tail)):
        return text
    kept = "\n".join(lines[:start]).rstrip()
    return kept if kept.strip() else text
