"""A player's own settings: which mails they get, their language and time zone."""

from __future__ import annotations

from sqlalchemy import case, func, select

from ..extensions import db
from ..i18n import N_
from ..models import BOARD_MAIL, Game, GameMaster, Player, utcnow
from ..rules.schedule import ScheduleError, to_local
from .access import Viewer
from .errors import Invalid
from .games import LANGUAGE_ONE_OF, LANGUAGES


def update_preferences(player: Player, *, wants_round_mail: bool, wants_reminders: bool,
                       wants_confirmations: bool, language: str,
                       timezone: str | None, board_mail: str | None = None) -> Player:
    """Store one player's mail choices, language and time zone (None: the game's).

    ``board_mail``: the game's board by mail (BOARD_MAIL: each post, a daily digest,
    none; None keeps it). Raises Invalid naming the bad value (an unknown language,
    a time zone that is not an IANA name, with a suggestion); nothing is changed then.
    """
    if language not in LANGUAGES:
        raise Invalid(LANGUAGE_ONE_OF, languages=", ".join(LANGUAGES))
    if board_mail is not None and board_mail not in BOARD_MAIL:
        raise Invalid(N_("the board by mail is one of {choices}, not '{value}'"),
                      choices=", ".join(BOARD_MAIL), value=board_mail[:20])
    zone = (timezone or "").strip() or None
    if zone is not None:
        try:
            to_local(utcnow(), zone)
        except ScheduleError as exc:
            raise Invalid(exc.message_id, **exc.params) from None
    player.wants_round_mail = bool(wants_round_mail)
    player.wants_reminders = bool(wants_reminders)
    player.wants_confirmations = bool(wants_confirmations)
    if board_mail is not None:
        player.board_mail = board_mail
    player.language, player.timezone = language, zone
    db.session.commit()
    return player


def site_language(viewer: Viewer) -> str | None:
    """The language a signed-in person reads the pages in, by their own setting.

    A GM: the account's language. A player: the language set for their newest
    game, games still running before finished ones, active before withdrawn
    (the one player, for a session opened by an invitation link). None when
    there is nothing to go by.
    """
    if viewer.is_gm:
        gm = db.session.get(GameMaster, viewer.gm_id)
        if gm is not None:
            return gm.language
    query = (select(Player.language).join(Game, Player.game_id == Game.id)
             .where(func.lower(Player.email) == viewer.email)
             .order_by(case((Player.active, 0), else_=1),
                       case((Game.state == "finished", 1), else_=0), Game.id.desc())
             .limit(1))
    if viewer.player_id is not None:
        query = query.where(Player.id == viewer.player_id)
    return db.session.scalar(query)
