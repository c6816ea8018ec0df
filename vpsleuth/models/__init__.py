"""The database models (typed SQLAlchemy 2.x)."""

from .game import AuditEntry, Game, GameSecret, Player, Round
from .turn import CHANNELS, RoundResult, StandingQuestion, StandingTip, TurnVersion
from .types import UTCDateTime, VerbatimText, utcnow

__all__ = ["CHANNELS", "AuditEntry", "Game", "GameSecret", "Player", "Round", "RoundResult",
           "StandingQuestion", "StandingTip", "TurnVersion", "UTCDateTime", "VerbatimText",
           "utcnow"]
