"""Sign-offs below a turn: "Grüße", "Cheers, Ada", a name, a phone number, a disclaimer.

Most people sign their mails, and many mail programs add a signature by
themselves. A turn is all or nothing, so one such line would cost the player
the whole turn. This module finds the trailing block that is safe to set aside:

* it comes after the last turn line (a line whose first word is a keyword);
* no line of it holds a command, a gem (``RD1``, ``red``, ``Perle``; ``RD4``
  counts too), a location (``A``-``G``, ``X``, nobody, niemand, nadie) or a near-miss
  of a keyword (``TPI``, ``QUESTOIN``, ``Frgae``): such a line is a turn line
  gone wrong, and refusing it says so, where setting it aside would hide it.

A line that is not a command *between* turn lines is left for the parser, which
refuses the turn as before; so is a greeting above the turn. Comments (``#``)
stay in the turn. The caller reports the lines set aside word for word.

Pure: the turn language and the gems only; the mail pipeline decides where it
applies (mail only; see docs/mail-inbound.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..rules import GemError, parse_attributes, parse_gem
from ..rules.gems import Category
from . import parser as _parser

# The keywords of the turn language. The parser's own table is taken too, so a
# keyword added there is never mistaken for a sign-off word.
_OWN_KEYWORDS = frozenset({
    "question", "q", "frage", "tip", "tips", "tipp", "tipps", "drop", "withdraw",
    "streiche", "streichen", "repeat", "wiederhole", "wiederholen", "end", "ende",
    "pregunta", "preguntar", "pista", "pistas", "apuesta", "apuestas", "quita", "quitar",
    "retira", "repite", "repetir", "fin",
})
KEYWORDS = _OWN_KEYWORDS | frozenset(getattr(_parser, "_KEYWORDS", {}))
_END_WORDS = frozenset({"end", "ende", "fin"})
_LOCATION_WORDS = frozenset({"nobody", "niemand", "nadie"})
_LOCATION_LETTERS = frozenset("ABCDEFGX")
# Everyday words one slip away from a Spanish keyword ("Fun game!", "Quite a week"):
# a sign-off line starting with one is still a sign-off.
_ORDINARY = frozenset({"fun", "fine", "find", "fino", "fina", "quite", "quiet", "pasta",
                       "piste", "retire", "retired"})
_FIRST_WORD = re.compile(r"^\s*([^\W\d_]+)")
_LEADING = re.compile(r"^[^\w#]+")
# A gem code, valid or not (RD1, 1dr, RD4, BP0): two gem letters and a digit, any order.
_CODE_LIKE = re.compile(r"^(?=(?:.*[rbgydpo]){2})(?=.*\d)[rbgydpo\d]{3}$", re.IGNORECASE)
# QWERTY/QWERTZ neighbours, for one-letter slips in the three-letter keywords.
_ROWS = ("qwertzuiop", "asdfghjkl", "yxcvbnm", "qwertyuiop", "zxcvbnm")
_NEIGHBOURS: dict[str, set[str]] = {}
for _row in _ROWS:
    for _i, _c in enumerate(_row):
        _NEIGHBOURS.setdefault(_c, set()).update(_row[max(0, _i - 1):_i] + _row[_i + 1:_i + 2])
for _upper, _lower in (("qwertzuiop", "asdfghjkl"), ("asdfghjkl", "yxcvbnm"),
                       ("qwertyuiop", "asdfghjkl"), ("asdfghjkl", "zxcvbnm")):
    for _i, _c in enumerate(_upper):
        for _d in _lower[max(0, _i - 1):_i + 1]:
            _NEIGHBOURS.setdefault(_c, set()).add(_d)
            _NEIGHBOURS.setdefault(_d, set()).add(_c)


@dataclass(frozen=True)
class SignOff:
    """A turn text split from its sign-off: ``turn`` goes to the parser, ``lines``
    (word for word, without surrounding blanks) are reported as ignored."""

    turn: str
    lines: tuple[str, ...] = ()


def _osa(a: str, b: str) -> int:
    """Edit distance counting an adjacent swap as one edit (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def _slip_of(word: str, keyword: str) -> bool:
    """A typo of a three-letter keyword: two letters swapped, one added, or one
    replaced by a key next to it. ("Tim" is not a slip of "tip": m is far from p.)"""
    if len(word) == len(keyword):
        diff = [i for i in range(len(word)) if word[i] != keyword[i]]
        if len(diff) == 1:
            return word[diff[0]] in _NEIGHBOURS.get(keyword[diff[0]], set())
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and word[diff[0]] == keyword[diff[1]] and word[diff[1]] == keyword[diff[0]])
    return len(word) == len(keyword) + 1 and _osa(word, keyword) == 1


def near_miss(word: str) -> str | None:
    """The keyword ``word`` looks like a typo of (``TPI`` -> tip), or None.

    Keywords of one or two letters have no near-misses (every short word would
    be one); three-letter ones only the typical slips; longer ones up to one
    edit, and from six letters on up to two.
    """
    word = word.lower()
    if word in KEYWORDS or word in _ORDINARY:
        return None
    for keyword in sorted(KEYWORDS):
        if len(keyword) <= 2 or abs(len(word) - len(keyword)) > 2:
            continue
        if len(keyword) == 3:
            if _slip_of(word, keyword):
                return keyword
        elif _osa(word, keyword) <= (2 if len(keyword) >= 6 else 1):
            return keyword
    return None


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

    Only lines after the last turn line can be a sign-off, and only when none of
    them looks like a turn line. Lines after END are ignored by the parser, so
    nothing is set aside once END has been read. The sign-off lines are removed
    (comments among them stay); what remains keeps its line numbers.
    """
    lines = text.split("\n")
    commands = [i for i, line in enumerate(lines) if is_command(line)]
    if not commands:
        return SignOff(text)
    if any(first_word(lines[i]).lower() in _END_WORDS for i in commands):
        return SignOff(text)
    last = commands[-1]
    tail = lines[last + 1:]
    signoff = [line for line in tail if not is_ignored(line)]
    if not signoff or any(looks_like_turn(line) for line in signoff):
        return SignOff(text)
    kept = lines[:last + 1] + [line for line in tail if is_ignored(line)]
    while len(kept) > last + 1 and not kept[-1].strip():
        kept.pop()
    return SignOff("\n".join(kept), tuple(line.strip() for line in signoff))
