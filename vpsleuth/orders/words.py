"""Parser errors in the reader's language: codes and parameters become words at the edge.

The parser records each bad line with an English message id (marked N_, with
{named} places), its parameters and a hint id; ``str(error)`` stays English
(CLI, logs, stored records). A page, mail or API answer calls ``describe`` or
``localized`` with the reader's language and a ``translate(lang, msgid)``
function (vpsleuth.i18n.translate), so this module stays pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..rules.gems import N_, in_words

Translate = Callable[[str, str], str]

# The hints are message ids too: each catalogue writes them with its own keywords.
HINTS = {
    "question": N_("QUESTION <A-G> <one attribute or two of different categories>, "
                   "e.g. QUESTION E blue opal"),
    "tip": N_("TIP <A-G or X> <gem>, e.g. TIP A RD1 or TIP X yellow opal cluster"),
    "drop": N_("DROP <gem> or DROP ALL, e.g. DROP RD1"),
    "repeat": N_("REPEAT on a line of its own: last round's tips again"),
    "end": N_("END on a line of its own: nothing below it is read"),
    "unknown": N_("lines start with QUESTION, TIP, DROP, REPEAT or END (or FRAGE, TIPP, "
                  "STREICHE, WIEDERHOLE, ENDE); # starts a comment"),
}


@dataclass(frozen=True)
class LineError:
    """One bad line: its number (from 1), its text, what was wrong, what is right.

    ``message`` and ``hint`` are English (``str()``, the CLI, logs, the records);
    ``message_id`` (marked N_, with {named} places) and ``params`` let the edge
    say it in the reader's language (orders.words.describe); the hint is its own id.
    """

    line: int
    text: str
    message: str
    hint: str
    message_id: str = ""
    params: dict[str, object] = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        return f"line {self.line}: {self.message} (write: {self.hint})"



def _english(lang: str, text: str) -> str:
    return text


def message(error: LineError, lang: str, translate: Translate = _english) -> str:
    """What was wrong with the line, in ``lang``."""
    if not error.message_id:
        return translate(lang, error.message)
    return translate(lang, error.message_id).format(
        **{k: in_words(v, lang) for k, v in error.params.items()})


def hint(error: LineError, lang: str, translate: Translate = _english) -> str:
    """What would be right, with ``lang``'s own keywords."""
    return translate(lang, error.hint)


def describe(error: LineError, lang: str, translate: Translate = _english) -> str:
    """``Zeile 2: 'H' ist kein Ort; ... (richtig: TIPP <A-G oder X> ...)``"""
    return translate(lang, N_("line {line}: {message} (write: {hint})")).format(
        line=error.line, message=message(error, lang, translate),
        hint=hint(error, lang, translate))


@dataclass(frozen=True)
class ShownLine:
    """A bad line as the reader sees it: ``message`` and ``hint`` in their language."""

    line: int
    text: str
    message: str
    hint: str


def localized(errors: Iterable[LineError], lang: str,
              translate: Translate = _english) -> list[ShownLine]:
    """The errors with message and hint in ``lang``, for templates and JSON."""
    return [ShownLine(e.line, e.text, message(e, lang, translate), hint(e, lang, translate))
            for e in errors]
