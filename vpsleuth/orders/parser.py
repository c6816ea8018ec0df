"""The turn language: one text format for a player's turn (email, CLI, GM, API).

    # comments and blank lines are ignored
    QUESTION E blue opal     FRAGE E blaue Opale     PREGUNTA E ópalos azules
    TIP A RD1                TIPP A Diamant rot I    APUESTA A diamante rojo solitario
    TIP X YO3, B BP2         (several tips: comma-separated; PISTA too)
    DROP RD1                 STREICHE RD1            QUITA RD1       withdraw a tip
    DROP ALL                 STREICHE ALLE           QUITA TODAS     withdraw every tip
    QUESTION NONE            FRAGE KEINE             PREGUNTA NINGUNA  withdraw the question
    REPEAT                   WIEDERHOLE              REPITE          last round's tips again
    END                      ENDE                    FIN             ignore everything below

Every keyword works for every player, whatever their language; X is also
nobody, niemand or nadie.

The lines apply in the order written and a later line wins (RULES.md 6a):
``TIP A RD1`` then ``REPEAT`` leaves last round's tip for RD1, if it had one;
``DROP ALL`` withdraws every tip standing at that point, also those placed by
earlier lines. A turn is all or nothing: if any line is wrong, nothing of it is
applied and every bad line is reported with its number, what was wrong and what
would be right.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

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
from ..rules.gems import N_, RuleError, in_words, shown
from .keywords import KEYWORDS, near_miss
from .words import HINTS, LineError

# English, German and Spanish keywords; every player may use any of them.
_KEYWORDS = KEYWORDS
_NONE_WORDS = {"none", "no", "keine", "kein", "nichts", "-", "ninguna", "ninguno", "nada"}
_ALL_WORDS = {"all", "alle", "alles", "todas", "todos", "todo"}
_NOBODY_WORDS = {"x", "nobody", "niemand", "none", "nadie"}
_LEAD = re.compile(r"^\s*([A-Za-zÄÖÜäöü]+)\s*:?\s*(.*)$")
# A comma or semicolon followed by a new location starts another tip ("A RD1, X YO3").
_TIP_SPLIT = re.compile(r"[,;]\s*(?=(?:[A-GX]|nobody|niemand|none|nadie)\s)", re.IGNORECASE)
_CODES_ONLY = re.compile(r"^(?:[RBGYDPO123rbgydpo]{3}\s*)+$")

_UNSET = object()
T = TypeVar("T")


@dataclass(frozen=True)
class PlaceTip:
    """``TIP A RD1``: the gem at a location (A-G or X)."""

    line: int
    gem: Gem
    location: str


@dataclass(frozen=True)
class DropTip:
    """``DROP RD1``: withdraw the tip for one gem."""

    line: int
    gem: Gem


@dataclass(frozen=True)
class DropAll:
    """``DROP ALL``: withdraw every tip standing at this point."""

    line: int


@dataclass(frozen=True)
class RepeatLastRound:
    """``REPEAT``: last round's tips again, over whatever stands for those gems."""

    line: int


Step = PlaceTip | DropTip | DropAll | RepeatLastRound


@dataclass
class TurnChange:
    """What one message asks to change in a player's standing turn.

    ``steps`` are its tip lines in the order written; apply them with
    ``apply_tips``. The question is the last question line's (QUESTION NONE
    withdraws it); ``_UNSET`` when no line names one.
    """

    question: Question | None | object = _UNSET  # _UNSET: keep the standing question
    steps: list[Step] = field(default_factory=list)

    @property
    def changes_question(self) -> bool:
        return self.question is not _UNSET

    @property
    def is_empty(self) -> bool:
        return not (self.changes_question or self.steps)

    def apply_tips(self, tips: dict[Gem, T], last_round: Callable[[], Mapping[Gem, str]],
                   placed: Callable[[str], T] = lambda location: location) -> None:
        """Apply the tip lines to ``tips`` (gem -> ``placed(location)``), in order.

        ``last_round()`` is asked for last round's tips only when a REPEAT
        applies. ``placed`` lets a caller keep more than the location (the
        service keeps the version that set each tip).
        """
        for step in self.steps:
            if isinstance(step, PlaceTip):
                tips[step.gem] = placed(step.location)
            elif isinstance(step, DropTip):
                tips.pop(step.gem, None)
            elif isinstance(step, DropAll):
                tips.clear()
            else:
                tips.update((gem, placed(location)) for gem, location in last_round().items())

    def _since_drop_all(self) -> list[Step]:
        last = max((i for i, s in enumerate(self.steps) if isinstance(s, DropAll)), default=-1)
        return self.steps[last + 1:]

    def _last_per_gem(self) -> dict[Gem, str | None]:
        last: dict[Gem, str | None] = {}
        for step in self._since_drop_all():
            if isinstance(step, PlaceTip):
                last[step.gem] = step.location
            elif isinstance(step, DropTip):
                last[step.gem] = None
        return last

    @property
    def tips(self) -> dict[Gem, str]:
        """The tips this message places that no later line of it withdraws.

        A later REPEAT can still put last round's tip for such a gem in its place.
        """
        return {gem: loc for gem, loc in self._last_per_gem().items() if loc is not None}

    @property
    def dropped(self) -> set[Gem]:
        """The gems whose last line in this message (after any DROP ALL) withdraws them."""
        return {gem for gem, loc in self._last_per_gem().items() if loc is None}

    @property
    def drop_all(self) -> bool:
        return any(isinstance(step, DropAll) for step in self.steps)

    @property
    def repeat(self) -> bool:
        """A REPEAT that counts: one after the last DROP ALL."""
        return any(isinstance(step, RepeatLastRound) for step in self._since_drop_all())


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

    def error(self, no: int, text: str, message: str, kind: str, /, **params: object) -> None:
        english = message.format(**{k: in_words(v) for k, v in params.items()})
        self.errors.append(LineError(no, text, english, HINTS[kind], message, params))

    def refused(self, no: int, text: str, exc: RuleError, kind: str) -> None:
        self.error(no, text, exc.message_id, kind, **exc.params)

    def line(self, no: int, text: str) -> bool:
        """Handle one line; False once END is read."""
        body = text.split("#", 1)[0].strip()
        if not body or body.startswith("//"):
            return True
        m = _LEAD.match(body)
        keyword = _KEYWORDS.get(m.group(1).lower()) if m else None
        if keyword is None:
            self.unknown(no, text, body.split()[0])
            return True
        rest = m.group(2).strip()
        if keyword == "end":
            return False
        if keyword == "repeat":
            self.change.steps.append(RepeatLastRound(no))
        else:
            getattr(self, keyword)(no, text, rest, m.group(1).upper())
        return True

    def unknown(self, no: int, text: str, word: str) -> None:
        # A slip of a keyword gets that keyword and its own hint, not the whole list.
        bare = word.strip(":,;.")
        meant = near_miss(bare) if bare.isalpha() else None
        if meant is None:
            self.error(no, text, N_("'{word}' is not a command"), "unknown", word=shown(word))
        else:
            self.error(no, text, N_("'{word}' is not a command; did you mean {keyword}?"),
                       _KEYWORDS[meant], word=shown(word), keyword=meant.upper())

    def question(self, no: int, text: str, rest: str, word: str) -> None:
        # A later question line replaces an earlier one, as a later turn would (6a).
        if rest.lower() in _NONE_WORDS:
            self.change.question = None
            return
        try:
            self.change.question = parse_question(rest)
        except QuestionError as exc:
            self.refused(no, text, exc, "question")

    def tip(self, no: int, text: str, rest: str, word: str) -> None:
        on_this_line: dict[Gem, str] = {}
        head, _, gems = rest.partition(" ")
        for item in _TIP_SPLIT.split(f"{head} {gems}".strip()):
            place_word, _, gem_text = item.strip().partition(" ")
            location = parse_location(place_word)
            if not place_word:
                self.error(no, text, N_("no location and gem after {keyword}"), "tip",
                           keyword=word)
                continue
            if location is None:
                self.error(no, text, N_("'{word}' is not a location; tips go to A-G or X "
                                        "(nobody)"), "tip", word=shown(place_word))
                continue
            if not gem_text.strip():
                self.error(no, text, N_("no gem after {location}"), "tip", location=location)
            for gem_word in _gem_items(gem_text):
                self._add_tip(no, text, location, gem_word, on_this_line)

    def _add_tip(self, no: int, text: str, location: str, gem_text: str,
                 on_this_line: dict[Gem, str]) -> None:
        try:
            gem = parse_gem(gem_text)
        except GemError as exc:
            self.refused(no, text, exc, "tip")
            return
        # A later line wins; two places for one gem on one line is a slip to report.
        earlier = on_this_line.setdefault(gem, location)
        if earlier != location:
            self.error(no, text, N_("{gem} is tipped at {earlier} and at {location} on this "
                                    "line; one tip per gem"), "tip",
                       gem=gem.code, earlier=earlier, location=location)
            return
        self.change.steps.append(PlaceTip(no, gem, location))

    def drop(self, no: int, text: str, rest: str, word: str) -> None:
        if rest.lower() in _ALL_WORDS:
            self.change.steps.append(DropAll(no))
            return
        if not rest:
            self.error(no, text, N_("no gem to withdraw"), "drop")
        for gem_text in _gem_items(rest):
            try:
                self.change.steps.append(DropTip(no, parse_gem(gem_text)))
            except GemError as exc:
                self.refused(no, text, exc, "drop")


def parse_turn(text: str) -> ParsedTurn:
    """Parse a whole message in the turn language; never raises."""
    parser = _Parser()
    for no, line in enumerate(text.splitlines(), start=1):
        if not parser.line(no, line):
            break
    return ParsedTurn(parser.change, parser.errors)
