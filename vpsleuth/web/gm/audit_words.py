"""The audit log's details in words, in the GM's language: never a repr or raw JSON.

Each entry stores its details as JSON (services.games.audit). Entries written
before the house rules were stored as a mapping hold them as the Ruleset's repr
("Ruleset(rounds=6, ...)"); both are read.
"""

from __future__ import annotations

import contextlib
import json
import re
from datetime import datetime, timedelta

from ...i18n import N_, ntranslate, translate
from ...i18n.dates import moment_text
from ...i18n.house_rules import MISSED_TURN_CELLS
from ...i18n.schedule_words import schedule_text
from ...rules.schedule import Schedule, ScheduleError
from ...services.names import former_name

_REPR_FIELD = re.compile(r"(\w+)=(\([^)]*\)|[^,)]+)")
_DURATION = re.compile(r"^(?:(-?\d+) days?, )?(\d+):(\d\d):(\d\d)(?:\.\d+)?$")
_STAMP = re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?\+00:00$")
AFTER_EARLY = {"calendar": N_("the next deadline keeps the calendar"),
               "fresh": N_("the next round gets a whole interval from the close")}
BOT_LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
CHATS = {"discord": "Discord", "slack": "Slack", "mattermost": "Mattermost",
         "matrix": "Matrix"}  # a chat webhook's format (services/webhooks.py)
# Words for the keys of details this module has no sentence for (new actions).
KEYS = {"player": N_("player"), "email": N_("address"), "round": N_("round"),
        "old": N_("before"), "new": N_("now"), "deadline": N_("deadline"),
        "label": N_("label"), "token": N_("token"), "name": N_("name")}


def audit_words(action: str, detail: str, timezone: str = "UTC", lang: str = "en") -> list[str]:
    """What an entry's details say, as short phrases in ``lang``; times in ``timezone``."""
    try:
        data = json.loads(detail or "{}")
    except ValueError:
        return [detail]
    if not isinstance(data, dict):
        return [_value(data, timezone, lang)]
    words = _Words(data, timezone, lang)
    said = _SAYINGS.get(action, _generic)(words)
    return [phrase for phrase in said if phrase]


class _Words:
    """One entry's details, and the words for them."""

    def __init__(self, data: dict, timezone: str, lang: str):
        self.data, self.timezone, self.lang = data, timezone, lang

    def t(self, text: str) -> str:
        return translate(self.lang, text)

    def when(self, key: str) -> str:
        return _value(self.data.get(key), self.timezone, self.lang)

    def moved(self) -> str:
        """"round 3: from <old> to <new>"."""
        return self.t("round {round}: from {old} to {new}").format(
            round=self.data.get("round"), old=self.when("old"), new=self.when("new"))

    def onoff(self, key: str) -> str:
        return self.t("on") if self.data.get(key) else self.t("off")


def _house_rules(w: _Words) -> list[str]:
    rules = w.data.get("rules")
    if isinstance(rules, str):  # the Ruleset's repr, as entries before stored it
        rules = {key: value.strip() for key, value in _REPR_FIELD.findall(rules)}
        rules["bonuses"] = [int(b) for b in re.findall(r"-?\d+", rules.get("bonuses", ""))]
        rules = {k: (v == "True" if v in ("True", "False") else v) for k, v in rules.items()}
    said = []
    if isinstance(rules, dict):
        rounds = int(rules.get("rounds", 12))
        said.append(ntranslate(w.lang, "{n} round", "{n} rounds", rounds).format(n=rounds))
        said.append(w.t("right {right}, wrong {wrong}").format(
            right=_signed(rules.get("points_right", 1)),
            wrong=_signed(rules.get("points_wrong", -2))))
        bonuses = ", ".join(str(b) for b in rules.get("bonuses", []))
        said.append(w.t("bonus {bonuses} from round {round}").format(
            bonuses=bonuses or "0", round=rules.get("first_bonus_round", 5)))
        said.append(w.t("the round closes as soon as everyone has sent a turn")
                    if rules.get("early_resolution") else w.t("the round closes at the deadline"))
    schedule = w.data.get("schedule")
    if isinstance(schedule, dict):
        with contextlib.suppress(ScheduleError, KeyError, TypeError, ValueError):
            said.append(w.t("deadlines: {schedule}").format(
                schedule=schedule_text(Schedule.from_json(schedule), w.lang)))
    if "after_early" in w.data:
        said.append(w.t("after an early close: {choice}").format(
            choice=w.t(AFTER_EARLY.get(w.data["after_early"], w.data["after_early"]))))
    if "deduction_aid" in w.data:
        said.append(w.t("deduction aid: {state}").format(state=w.onoff("deduction_aid")))
    if "missed_turn_rule" in w.data:
        said.append(w.t("a missed turn: {rule}").format(rule=w.t(MISSED_TURN_CELLS.get(
            w.data["missed_turn_rule"], "?"))))
    return said


def _generic(w: _Words) -> list[str]:
    return [f"{w.t(KEYS[k]) if k in KEYS else k.replace('_', ' ')}: "
            f"{_value(v, w.timezone, w.lang)}" for k, v in w.data.items()]


def _who(w: _Words) -> list[str]:
    name, email = w.data.get("player") or w.data.get("name"), w.data.get("email")
    return [f"{name} <{email}>" if email else str(name or "")]


def _duration(text: object, lang: str) -> str:
    """"2 days 3 hours", from a stored timedelta ("2 days, 3:04:05")."""
    match = _DURATION.match(str(text))
    if not match:
        return str(text)
    days, hours, minutes = int(match[1] or 0), int(match[2]), int(match[3])
    span = timedelta(days=days, hours=hours, minutes=minutes)
    days, rest = divmod(int(span.total_seconds()) // 60, 1440)
    hours, minutes = divmod(rest, 60)
    parts = [(ntranslate(lang, "{n} day", "{n} days", days), days),
             (ntranslate(lang, "{n} hour", "{n} hours", hours), hours),
             (ntranslate(lang, "{n} minute", "{n} minutes", minutes), minutes if not days else 0)]
    return " ".join(part.format(n=n) for part, n in parts if n) or ntranslate(
        lang, "{n} minute", "{n} minutes", 0).format(n=0)


def _value(value: object, timezone: str, lang: str) -> str:
    """One stored value in words: a time in the zone, yes/no, a list joined."""
    if isinstance(value, bool):
        return translate(lang, "yes") if value else translate(lang, "no")
    if isinstance(value, str) and _STAMP.match(value):
        return moment_text(datetime.fromisoformat(value), timezone, lang)
    if isinstance(value, list):
        return ", ".join(_value(v, timezone, lang) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')} {_value(v, timezone, lang)}"
                         for k, v in value.items())
    return "" if value is None else str(value)


def _signed(value: object) -> str:
    try:
        return f"{int(value):+d}".replace("-", "−")
    except (TypeError, ValueError):
        return str(value)


_SAYINGS = {
    "create_game": _house_rules,
    "announce": lambda w: [w.t("board post {post}").format(post=w.data.get("post"))],
    "hide_board_post": lambda w: [w.t("board post {post} by {author}").format(
        post=w.data.get("post"), author=w.data.get("author"))],
    "add_player": _who, "accept_join": _who, "decline_join": _who,
    "withdraw_player": _who, "forward_invitation": _who, "enter_turn": _who,
    "add_bot": lambda w: [w.t("{name}, level {level}").format(
        name=w.data.get("player"), level=w.t(BOT_LEVELS.get(w.data.get("level"), "?")))],
    "start_game": lambda w: [w.t("first deadline: {when}").format(when=w.when("deadline")),
                             w.t("commitment: {hash}").format(hash=w.data.get("commitment"))],
    "extend_deadline": lambda w: [w.moved()],
    "advance_deadline": lambda w: [w.moved()],
    "outage_deadline_moved": lambda w: [w.moved(), w.t("the service was silent for {span}")
                                        .format(span=_duration(w.data.get("outage"), w.lang))],
    "set_after_early": lambda w: [w.t("from “{old}” to “{new}”").format(
        old=w.t(AFTER_EARLY.get(w.data.get("old"), "?")),
        new=w.t(AFTER_EARLY.get(w.data.get("new"), "?")))],
    "set_deduction_aid": lambda w: [w.onoff("new")],
    "set_missed_turn_rule": lambda w: [w.t("from “{old}” to “{new}”").format(
        old=w.t(MISSED_TURN_CELLS.get(w.data.get("old"), "?")),
        new=w.t(MISSED_TURN_CELLS.get(w.data.get("new"), "?")))],
    "absence_entered": lambda w: [w.t("{player}: away from {starts} until {ends}").format(
        player=w.data.get("player"), starts=w.data.get("starts"), ends=w.data.get("ends"))],
    "absence_cancelled": lambda w: [w.t("{player}: away from {starts} until {ends}").format(
        player=w.data.get("player"), starts=w.data.get("starts"), ends=w.data.get("ends"))],
    "resume_game": lambda w: [
        w.t("paused for {span}").format(span=_duration(w.data.get("paused_for"), w.lang)),
        w.t("new deadline: {when}").format(when=w.when("deadline"))],
    "resolve_round": lambda w: [w.t("round {round}").format(round=w.data.get("round"))],
    "change_email": lambda w: [w.t("{player}: from {old} to {new}").format(
        player=w.data.get("player"), old=w.data.get("old"), new=w.data.get("new"))],
    "replace_player": lambda w: [w.t("from {old} ({old_email}) to {new} ({email}), who plays "
                                     "from round {round}").format(
        old=w.data.get("old"), old_email=w.data.get("old_email"), new=w.data.get("player"),
        email=w.data.get("email"), round=w.data.get("from_round"))],
    "player_left": lambda w: [w.t("a player left: the seat keeps its points as “{seat}”, "
                                  "with no name or address").format(
        seat=former_name(w.data.get("former"), w.lang))],
    "set_public": lambda w: [w.t("public once it ends") if w.data.get("new")
                             else w.t("private")],
    "set_rated": lambda w: [w.onoff("new")],
    "set_webhook": lambda w: [w.t("{chat} at {host}").format(
        chat=CHATS.get(w.data.get("format"), "?"), host=w.data.get("host"))],
    "clear_webhook": lambda w: [w.t("{chat} at {host}").format(
        chat=CHATS.get(w.data.get("format"), "?"), host=w.data.get("host"))],
    "handed_over": lambda w: [w.t("to {name}").format(name=w.data.get("to"))],
    "game_master_left": lambda w: [w.t("the game goes on without a game master")],
    "set_listing": lambda w: [
        (ntranslate(w.lang, "open to join, at most {n} player",
                    "open to join, at most {n} players",
                    int(w.data["max_players"])).format(n=w.data["max_players"])
         if w.data.get("max_players") else w.t("open to join"))
        if w.data.get("open") else w.t("not open to join")],
}
