"""A player's own settings: which mails they get, their language and time zone."""

from __future__ import annotations

from ..extensions import db
from ..models import Player, utcnow
from ..schedule import ScheduleError, to_local
from .errors import Invalid
from .games import LANGUAGES


def update_preferences(player: Player, *, wants_round_mail: bool, wants_reminders: bool,
                       wants_confirmations: bool, language: str,
                       timezone: str | None) -> Player:
    """Store one player's mail choices, language and time zone (None: the game's).

    Raises Invalid naming the bad value (an unknown language, a time zone that
    is not an IANA name, with a suggestion); nothing is changed then.
    """
    if language not in LANGUAGES:
        raise Invalid(f"language must be one of {', '.join(LANGUAGES)}")
    zone = (timezone or "").strip() or None
    if zone is not None:
        try:
            to_local(utcnow(), zone)
        except ScheduleError as exc:
            raise Invalid(str(exc)) from None
    player.wants_round_mail = bool(wants_round_mail)
    player.wants_reminders = bool(wants_reminders)
    player.wants_confirmations = bool(wants_confirmations)
    player.language, player.timezone = language, zone
    db.session.commit()
    return player
