"""The turn language: one text format for a player's turn (email, CLI, GM, API).

    # comments and blank lines are ignored
    QUESTION E blue opal          FRAGE E blau Opal
    TIP A RD1                     TIPP A Diamant rot I
    TIP X YO3, B BP2              (several tips: comma-separated)
    DROP RD1                      STREICHE RD1      withdraw a tip
    DROP ALL                      STREICHE ALLE     withdraw every tip
    QUESTION NONE                 FRAGE KEINE       withdraw the question
    REPEAT                        WIEDERHOLE        last round's tips again
    END                           ENDE              ignore everything below

A turn is all or nothing: if any line is wrong, nothing of it is applied and
every bad line is reported with its number, what was wrong and what would be
right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..rules import (
    LOCATIONS,
    NOBODY,
    Gem,
    GemError,
    Question,
    QuestionError,
    parse_gem,
    parse_question,
)
from ..rules.gems import shown

_KEYWORDS = {
    "question": "question", "q": "question", "frage": "question",
    "tip": "tip", "tips": "tip", "tipp": "tip", "tipps": "tip",
    "drop": "drop", "withdraw": "drop", "streiche": "drop", "streichen": "drop",
    "repeat": "repeat", "wiederhole": "repeat", "wiederholen": "repeat",
    "end": "end", "ende": "end",
}
_NONE_WORDS = {"none", "no", "keine", "kein", "nichts", "-"}
_ALL_WORDS = {"all", "alle", "alles"}
_NOBODY_WORDS = {"x", "nobody", "niemand", "none"}
_LEAD = re.compile(r"^\s*([A-Za-zÄÖÜäöü]+)\s*:?\s*(.*)$")
# A comma or semicolon followed by a new location starts another tip ("A RD1, X YO3").
_TIP_SPLIT = re.compile(r"[,;]\s*(?=(?:[A-GX]|nobody|niemand|none)\s)", re.IGNORECASE)
_CODES_ONLY = re.compile(r"^(?:[RBGYDPO123rbgydpo]{3}\s*)+$")

HINTS = {
    "question": "QUESTION <A-G> <one attribute or two of different categories>, "
                "e.g. QUESTION E blue opal",
    "tip": "TIP <A-G or X> <gem>, e.g. TIP A RD1 or TIP X yellow opal cluster",
    "drop": "DROP <gem> or DROP ALL, e.g. DROP RD1",
    "unknown": "lines start with QUESTION, TIP, DROP, REPEAT or END (or FRAGE, TIPP, "
               "STREICHE, WIEDERHOLE, ENDE); # starts a comment",
}


@dataclass(frozen=True)
class LineError:
    """One bad line: its number (from 1), its text, what was wrong, what is right."""

    line: int
    text: str
    message: str
    hint: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message} (write: {self.hint})"


_UNSET = object()


@dataclass
class TurnChange:
    """What one message asks to change in a player's standing turn."""

    question: Question | None | object = _UNSET  # _UNSET: keep the standing question
    tips: dict[Gem, str] = field(default_factory=dict)
    dropped: set[Gem] = field(default_factory=set)
    drop_all: bool = False
    repeat: bool = False

    @property
    def changes_question(self) -> bool:
        return self.question is not _UNSET

    @property
    def is_empty(self) -> bool:
        return not (self.changes_question or self.tips or self.dropped
                    or self.drop_all or self.repeat)


@dataclass
class ParsedTurn:
    change: TurnChange
    errors: list[LineError]

    @property
    def ok(self) -> bool:
        return not self.errors


def parse_location(word: str) -> str | None:
    w = word.strip(":,").lower()
    if w in _NOBODY_WORDS:
        return NOBODY
    return w.upper() if len(w) == 1 and w.upper() in LOCATIONS else None


def _gem_items(text: str) -> list[str]:
    items = [i.strip() for i in re.split(r"[,;]", text) if i.strip()]
    out: list[str] = []
    for item in items:
        out.extend(item.split() if _CODES_ONLY.match(item) else [item])
    return out


class _Parser:
    def __init__(self) -> None:
        self.change = TurnChange()
        self.errors: list[LineError] = []
        self.tip_lines: dict[Gem, int] = {}
        self.texts: dict[int, str] = {}
        self.question_line: int | None = None

    def error(self, no: int, text: str, message: str, kind: str) -> None:
        self.errors.append(LineError(no, text, message, HINTS[kind]))

    def line(self, no: int, text: str) -> bool:
        """Handle one line; False once END is read."""
        self.texts[no] = text
        body = text.split("#", 1)[0].strip()
        if not body or body.startswith("//"):
            return True
        m = _LEAD.match(body)
        keyword = _KEYWORDS.get(m.group(1).lower()) if m else None
        if keyword is None:
            self.error(no, text, f"'{shown(body.split()[0])}' is not a command", "unknown")
            return True
        rest = m.group(2).strip()
        if keyword == "end":
            return False
        if keyword == "repeat":
            self.change.repeat = True
        else:
            getattr(self, keyword)(no, text, rest)
        return True

    def question(self, no: int, text: str, rest: str) -> None:
        if self.question_line is not None:
            self.error(no, text, f"a second question (the first is on line "
                       f"{self.question_line}); one question per round", "question")
            return
        self.question_line = no
        if rest.lower() in _NONE_WORDS:
            self.change.question = None
            return
        try:
            self.change.question = parse_question(rest)
        except QuestionError as exc:
            self.error(no, text, str(exc), "question")

    def tip(self, no: int, text: str, rest: str) -> None:
        head, _, gems = rest.partition(" ")
        for item in _TIP_SPLIT.split(f"{head} {gems}".strip()):
            place_word, _, gem_text = item.strip().partition(" ")
            location = parse_location(place_word)
            if not place_word:
                self.error(no, text, "no location and gem after TIP", "tip")
                continue
            if location is None:
                self.error(no, text, f"'{shown(place_word)}' is not a location; "
                           "tips go to A-G or X (nobody)", "tip")
                continue
            if not gem_text.strip():
                self.error(no, text, f"no gem after {location}", "tip")
            for gem_word in _gem_items(gem_text):
                self._add_tip(no, text, location, gem_word)

    def _add_tip(self, no: int, text: str, location: str, gem_text: str) -> None:
        try:
            gem = parse_gem(gem_text)
        except GemError as exc:
            self.error(no, text, str(exc), "tip")
            return
        earlier = self.tip_lines.get(gem)
        if earlier is not None and self.change.tips[gem] != location:
            self.error(no, text, f"{gem.code} is already tipped at {self.change.tips[gem]} "
                       f"on line {earlier}; one tip per gem", "tip")
            return
        self.tip_lines[gem] = no
        self.change.tips[gem] = location

    def drop(self, no: int, text: str, rest: str) -> None:
        if rest.lower() in _ALL_WORDS:
            self.change.drop_all = True
            return
        if not rest:
            self.error(no, text, "no gem to withdraw", "drop")
        for gem_text in _gem_items(rest):
            try:
                self.change.dropped.add(parse_gem(gem_text))
            except GemError as exc:
                self.error(no, text, str(exc), "drop")


def parse_turn(text: str) -> ParsedTurn:
    """Parse a whole message in the turn language; never raises."""
    parser = _Parser()
    for no, line in enumerate(text.splitlines(), start=1):
        if not parser.line(no, line):
            break
    clash = parser.change.dropped & set(parser.change.tips)
    for gem in sorted(clash, key=lambda g: g.sort_key):
        no = parser.tip_lines[gem]
        parser.error(no, parser.texts[no], f"{gem.code} is both tipped and withdrawn", "drop")
    return ParsedTurn(parser.change, parser.errors)
