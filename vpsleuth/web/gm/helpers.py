"""What every GM page needs: the GM's game, its players, times in the game's zone."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from flask import Response, flash, g

from ...extensions import db
from ...i18n import N_, translate
from ...i18n.dates import moment_text, short_time_left
from ...models import Game, GameMaster, Player, utcnow
from ...rules.schedule import ScheduleError, to_local
from ...services import access
from ...services.errors import NotFound, ServiceError
from ..errors import STATUS
from ..session import current_language, current_viewer
from . import bp
from .audit_words import audit_words
from .forms import COMMON_ZONES, LANGUAGES

LOCAL_INPUT = "%Y-%m-%dT%H:%M"  # what <input type="datetime-local"> sends
UTC_STAMP = re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?\+00:00$")  # audit times
# English words for stored codes; translated where shown (label()).
# A game's states, shown as pills (t(state) in web/gm/_macros.html).
GAME_STATES = (N_("setup"), N_("running"), N_("paused"), N_("finished"))
LABELS = {
    "channel": {"cli": N_("command line"), "web": N_("web"), "email": N_("email"),
                "gm": N_("entered by GM"),
                "api": N_("API"), "bot": N_("computer player"),
                "repeat": N_("repeated automatically")},
    "mail": {"pending": N_("waiting"), "sending": N_("sending"), "sent": N_("sent"),
             "failed": N_("failed")},
    "action": {
        "create_game": N_("game created"), "add_player": N_("player invited"),
        "add_bot": N_("computer player added"),
        "withdraw_player": N_("player withdrawn"), "start_game": N_("game started"),
        "extend_deadline": N_("deadline extended"), "pause_game": N_("game paused"),
        "advance_deadline": N_("deadline brought forward"),
        "set_after_early": N_("deadline after an early close chosen"),
        "set_deduction_aid": N_("deduction aid switched"),
        "set_missed_turn_rule": N_("missed-turn rule chosen"),
        "absence_entered": N_("absence entered"),
        "absence_cancelled": N_("absence cancelled"),
        "announce": N_("announcement posted"), "hide_board_post": N_("board post hidden"),
        "resume_game": N_("game resumed"), "resolve_round": N_("round resolved"),
        "enter_turn": N_("turn entered"), "change_email": N_("address changed"),
        "view_distribution": N_("distribution viewed"),
        "forward_invitation": N_("invitation link made to forward"),
        "outage_deadline_moved": N_("deadline moved after an outage"),
        "issue_api_token": N_("API token issued"), "revoke_api_token": N_("API token revoked"),
        "set_listing": N_("listing changed"), "accept_join": N_("request to join accepted"),
        "decline_join": N_("request to join declined"),
        "export_with_secret": N_("exported with the secret"),
        "replace_player": N_("seat handed to a substitute"),
        "player_left": N_("a player left"), "set_public": N_("archive changed"),
        "set_rated": N_("rating switched"), "handed_over": N_("handed to another game master"),
        "game_master_left": N_("the game master left"),
        "set_webhook": N_("chat webhook set"), "clear_webhook": N_("chat webhook removed"),
    },
}


def actor() -> str:
    """The audit log's name for the signed-in GM: the account's address."""
    return current_viewer().email


def gm_account() -> GameMaster:
    return db.session.get(GameMaster, current_viewer().gm_id)


def gm_game(game_id: int) -> Game:
    """The game, if it exists and belongs to the signed-in GM; else 404 alike.

    Another GM's game is "not found" too: nobody learns which games there are.
    """
    game = db.session.get(Game, game_id)
    if game is None or not access.is_gm_of(current_viewer(), game):
        raise NotFound(N_("no such game among yours"))
    g.game = game
    return game


def game_player(game: Game, player_id: int | str | None) -> Player:
    """A player of this game by id; another game's player is not found here."""
    player = next((p for p in game.players if str(p.id) == str(player_id)), None)
    if player is None:
        raise NotFound(N_("no such player in '{game}'"), game=game.name)
    return player


def say(message: str, category: str = "ok", **values) -> None:
    """Flash ``message`` in the page language, then fill in ``values``."""
    text = translate(current_language(), message)
    flash(text.format(**values) if values else text, category)


def refused(exc: ServiceError) -> int:
    """Undo what the failed action left in the session; its HTTP status."""
    db.session.rollback()
    flash(exc.text(current_language()), "error")
    return STATUS.get(exc.code, 400)


def local_to_utc(text: str, timezone: str) -> datetime:
    """A datetime-local value ("2027-01-10T20:00") in ``timezone`` as aware UTC.

    Raises ScheduleError with a message for the GM (i18n.schedule_words says it). A
    local time that does not exist (spring forward) moves forward, as in the schedules
    (PEP 495, fold=0).
    """
    try:
        naive = datetime.strptime(text.strip().replace(" ", "T", 1), LOCAL_INPUT)
    except ValueError:
        raise ScheduleError(N_("'{text}' is not a date and time (YYYY-MM-DD HH:MM)"),
                            text=text) from None
    return naive.replace(tzinfo=ZoneInfo(timezone), fold=0).astimezone(UTC)


def local_input(moment: datetime, timezone: str) -> str:
    """The value for a datetime-local input showing ``moment`` in ``timezone``."""
    return to_local(moment, timezone).strftime(LOCAL_INPUT)


def time_left(deadline: datetime, lang: str, now: datetime | None = None) -> str:
    """"2 days 5 hr left" / "noch 2 Tage 5 Std.", or "passed"; minutes when under an hour."""
    return short_time_left(deadline, lang, now or utcnow())


def audit_details(detail: str, timezone: str = "UTC", lang: str = "en") -> list[tuple[str, str]]:
    """An audit entry's JSON detail as (key, value) pairs; UTC times shown in ``timezone``."""
    try:
        data = json.loads(detail or "{}")
    except ValueError:
        return [("", detail)]
    if not isinstance(data, dict):
        return [("", str(data))]
    pairs = []
    for key, value in data.items():
        if isinstance(value, str) and UTC_STAMP.match(value):
            value = moment_text(datetime.fromisoformat(value), timezone, lang)
        elif not isinstance(value, str):
            value = json.dumps(value, separators=(", ", ": "))
        pairs.append((key, value))
    return pairs


def no_store(response: Response) -> Response:
    """Secrets (the distribution, a new API token) must not stay in any cache."""
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.context_processor
def gm_page_helpers() -> dict:
    """Time formatting in the game's zone and the page language, for GM templates."""
    lang = current_language()

    def when(moment: datetime | None, timezone: str | None = None) -> str:
        if moment is None:
            return ""
        zone = timezone or (g.game.timezone if "game" in g else "UTC")
        return moment_text(moment, zone, lang)

    def label(kind: str, code: str) -> str:
        return translate(lang, LABELS[kind].get(code, code))

    def details(detail: str, timezone: str | None = None) -> list[tuple[str, str]]:
        zone = timezone or (g.game.timezone if "game" in g else "UTC")
        return audit_details(detail, zone, lang)

    def in_words(action: str, detail: str) -> list[str]:
        return audit_words(action, detail, g.game.timezone if "game" in g else "UTC", lang)

    return {"when": when, "time_left": lambda d: time_left(d, lang),
            "audit_details": details, "audit_words": in_words, "label": label,
            "languages": LANGUAGES,
            "zones": [(zone, zone) for zone in COMMON_ZONES]}
