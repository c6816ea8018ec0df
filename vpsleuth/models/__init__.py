"""The database models (typed SQLAlchemy 2.x)."""

from .account import ApiToken, GameMaster, LoginToken, RateEvent, WebSession
from .game import AuditEntry, Game, GameSecret, Player, Round
from .lobby import JoinRequest
from .mail import InboundMessage, MailBody, OutboxMessage, ReminderSent, SchedulerState
from .notebook import PlayerNotebook
from .notices import (
    NOTICE_CHANNELS,
    WEBHOOK_FORMATS,
    GameWebhook,
    Notice,
    PushSubscription,
    SiteKey,
)
from .record import Profile, Rating, RatingChange
from .season import BOARD_MAIL, MISSED_TURN_RULES, Absence, BoardPost, SeatChange
from .story import GameStory
from .turn import CHANNELS, RoundResult, StandingQuestion, StandingTip, TurnVersion
from .types import UTCDateTime, VerbatimText, utcnow

__all__ = [
    "BOARD_MAIL", "CHANNELS", "MISSED_TURN_RULES", "NOTICE_CHANNELS", "WEBHOOK_FORMATS",
    "GameWebhook", "Notice", "PushSubscription", "SiteKey", "Absence", "ApiToken", "BoardPost",
    "SeatChange", "AuditEntry", "Game", "GameMaster", "GameSecret", "GameStory",
    "InboundMessage",
    "JoinRequest", "LoginToken", "MailBody", "OutboxMessage", "Player", "RateEvent",
    "ReminderSent", "Round",
    "PlayerNotebook", "Profile", "Rating", "RatingChange",
    "RoundResult", "SchedulerState", "StandingQuestion", "StandingTip", "TurnVersion",
    "UTCDateTime", "VerbatimText", "WebSession", "utcnow",
]
