"""Errors that services raise: a stable code for the API, a message for people.

The message is an English message id (marked ``N_``, with ``{named}`` places)
and its parameters; ``message`` is the English text (API default, logs, the
GM's records), ``text(lang)`` the same through the gettext catalogue of the
reader's language. A parameter may be a ``Term`` (a marked text translated in
turn), a function of the language, or a schedule's ``Moment`` (a deadline, written
for each reader's language: ``deadline_in``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from ..i18n import N_, translate
from ..i18n.dates import deadline_text
from ..orders import LineError, describe
from ..rules.schedule import Moment


class Term(str):
    """A parameter that is itself a message id: ``Term(N_("a game's name"))``."""


def _in(lang: str, value: object) -> str:
    if isinstance(value, Term):
        return translate(lang, str(value))
    if callable(value):
        return str(value(lang))
    if isinstance(value, Moment):
        return deadline_text(value.at, value.timezone, lang)
    return str(value)


def deadline_in(moment: datetime, timezone: str) -> Moment:
    """A deadline parameter: written for each reader's language when the text is."""
    return Moment(moment, timezone)


class ServiceError(Exception):
    """``ServiceError(N_("'{game}' is full"), game=name)``; ``text(lang)`` says it in
    the reader's language, ``message`` in English."""

    code = "error"
    version_id: int | None = None  # a refused turn: the version that records it

    def __init__(self, message: str, /, **params: object | Callable[[str], str]):
        self.message_id = message
        self.params = params
        self.message = self.text("en")
        super().__init__(self.message)

    def text(self, lang: str) -> str:
        """The message in ``lang`` (English where the catalogue has none)."""
        template = translate(lang, self.message_id)
        if not self.params:
            return template
        return template.format(**{k: _in(lang, v) for k, v in self.params.items()})

    def sentence(self, lang: str) -> str:
        """The message as a sentence on its own (a page's notice, a mail's reason):
        capital first, full stop last. ``text`` stays as it is, for the API and for
        messages that embed it."""
        return as_sentence(self.text(lang))


def as_sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop (after Spanish ¿ or ¡;
    a text that opens with a quoted name keeps the name as written)."""
    lead = len(text) - len(text.lstrip("¡¿"))
    text = text[:lead] + text[lead:lead + 1].upper() + text[lead + 1:]
    return text if text.endswith((".", "!", "?", ":")) else text + "."


class NotFound(ServiceError):
    code = "not_found"


class Invalid(ServiceError):
    """Input that breaks a rule (a house rule, a name already taken, ...)."""

    code = "invalid"


class WrongState(ServiceError):
    """The game or round is not in a state that allows this."""

    code = "wrong_state"


class RoundClosed(ServiceError):
    """A turn for a round whose deadline has passed (or that is not open)."""

    code = "round_closed"


_REFUSED = N_("your turn was not applied; please fix these lines:")


class TurnRefused(ServiceError):
    """A turn with bad lines; nothing of it was applied."""

    code = "turn_refused"

    def __init__(self, errors: list[LineError]):
        self.errors = errors
        super().__init__(_REFUSED)

    def text(self, lang: str) -> str:
        """The refusal and every bad line, each with its hint, in ``lang``."""
        lines = "\n".join(describe(e, lang, translate) for e in self.errors)
        return f"{translate(lang, _REFUSED)}\n{lines}"
