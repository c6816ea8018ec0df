"""Errors that services raise: a stable code for the API, a message for people."""

from __future__ import annotations

from ..orders import LineError


class ServiceError(Exception):
    """``message`` is English (the API, logs, the GM's records); ``de`` the same in
    German, for a player who plays in German (``text(lang)``)."""

    code = "error"
    version_id: int | None = None  # a refused turn: the version that records it

    def __init__(self, message: str, *, de: str | None = None):
        super().__init__(message)
        self.message = message
        self.de = de

    def text(self, lang: str) -> str:
        """The message in ``lang`` where there is one, else in English."""
        return self.de if lang == "de" and self.de else self.message


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


class TurnRefused(ServiceError):
    """A turn with bad lines; nothing of it was applied."""

    code = "turn_refused"

    def __init__(self, errors: list[LineError]):
        self.errors = errors
        lines = "\n".join(str(e) for e in errors)
        super().__init__(f"your turn was not applied; please fix these lines:\n{lines}")
