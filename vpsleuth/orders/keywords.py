"""The keywords of the turn language, and the keyword a mistyped word was meant to be.

Every keyword works for every player, whatever their language. A word one slip
away from a keyword (``STRIECHE``, ``TPI``, ``QUESTOIN``) is a near-miss: the
parser answers "did you mean STREICHE?" and the sign-off finder never sets
such a line aside.

How near: the optimal-string-alignment distance (one edit each for a letter
swapped with its neighbour, added, dropped or replaced) from rapidfuzz, a
well-kept C++ matcher. difflib was tried first and cannot tell one slip from
two in a short word: its ratio for "eine" against "ende" (two letters changed)
is 0.75, as for "tipo" against "tipp" (one); over the 6,800 words of our docs,
catalogues and mail corpus it took 67 ordinary words ("sender", "this",
"status", "points") for keywords. Four- and five-letter keywords allow one
edit, longer ones two. Three-letter keywords would be matched by half the
short words people sign with (Tim, Ted, And), so for them only the slips a hand
makes count: two letters swapped, one added, or one replaced by a key next to
it on a QWERTY or QWERTZ keyboard.
"""

from __future__ import annotations

from rapidfuzz.distance import OSA

# English, German and Spanish keywords -> the command they give.
KEYWORDS = {
    "question": "question", "q": "question", "frage": "question",
    "pregunta": "question", "preguntar": "question",
    "tip": "tip", "tips": "tip", "tipp": "tip", "tipps": "tip",
    "apuesta": "tip", "apuestas": "tip", "pista": "tip", "pistas": "tip",
    "drop": "drop", "withdraw": "drop", "streiche": "drop", "streichen": "drop",
    "quita": "drop", "quitar": "drop", "retira": "drop",
    "repeat": "repeat", "wiederhole": "repeat", "wiederholen": "repeat",
    "repite": "repeat", "repetir": "repeat",
    "end": "end", "ende": "end", "fin": "end",
}
# Everyday words one slip away from a Spanish keyword ("Fun game!", "Quite a week"):
# never a near-miss, so a sign-off line starting with one stays a sign-off.
ORDINARY = frozenset({"fun", "fine", "find", "fino", "fina", "quite", "quiet", "pasta",
                      "piste", "retire", "retired"})
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


def _slip_of(word: str, keyword: str) -> bool:
    """A hand's slip on a three-letter keyword: two letters swapped, one added, or one
    replaced by a key next to it. ("Tim" is not a slip of "tip": m is far from p.)"""
    if len(word) == len(keyword):
        diff = [i for i in range(len(word)) if word[i] != keyword[i]]
        if len(diff) == 1:
            return word[diff[0]] in _NEIGHBOURS.get(keyword[diff[0]], set())
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and word[diff[0]] == keyword[diff[1]] and word[diff[1]] == keyword[diff[0]])
    return (len(word) == len(keyword) + 1
            and any(word[:i] + word[i + 1:] == keyword for i in range(len(word))))


def _slips(word: str, keyword: str) -> int | None:
    """How many slips make ``keyword`` into ``word``; None when it is no near-miss."""
    if len(keyword) <= 2 or abs(len(word) - len(keyword)) > 2:
        return None
    if len(keyword) == 3:
        return 1 if _slip_of(word, keyword) else None
    allowed = 2 if len(keyword) >= 6 else 1
    slips = OSA.distance(word, keyword, score_cutoff=allowed)
    return slips if slips <= allowed else None


def near_miss(word: str) -> str | None:
    """The keyword ``word`` looks like a typo of (``TPI`` -> tip), or None.

    The closest keyword wins; between equally close ones the first in
    alphabetical order, so the answer never depends on the table's order.
    Keywords of one or two letters have no near-misses.
    """
    word = word.lower()
    if word in KEYWORDS or word in ORDINARY:
        return None
    near = [(slips, keyword) for keyword in KEYWORDS
            if (slips := _slips(word, keyword)) is not None]
    return min(near)[1] if near else None
