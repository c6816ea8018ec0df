"""Reading games (any member) and creating one (a game master)."""

from __future__ import annotations

from datetime import datetime

from flask import url_for

from ..i18n import N_
from ..models import MISSED_TURN_RULES, Game
from ..rules import Ruleset, RulesetError
from ..rules.schedule import AFTER_EARLY, Schedule, ScheduleError, explicit, weekly
from ..services import access, games, reports
from ..services.errors import NotFound
from ..services.games import LANGUAGES
from . import bp, inputs
from .auth import Caller, caller, visible_game
from .errors import BadInput
from .serialize import game_detail, game_summary, iso, roles, round_full

# The app's int converter (web/inputs.py) matches 0 to MAX_ID only: a larger id is no
# route at all, answered by the app's JSON 404; ids out of range are also not found here.
GAME_ID = "<int:game_id>"
ROUND_NO = "<int:number>"


def my_roles(who: Caller, game: Game) -> list[str]:
    """The caller's roles in a game they may see: game_master, player or both."""
    plays = (who.player is not None and who.player.game_id == game.id) or (
        who.player is None and access.player_in(who.viewer, game) is not None)
    return roles(game, access.is_gm_of(who.viewer, game), plays)


@bp.get("/me")
def me():
    """Who the token belongs to."""
    who = caller()
    return {
        "kind": "game_master" if who.game_master is not None else "player",
        "name": who.name,
        "email": who.viewer.email,
        "game_master_id": who.game_master.id if who.game_master is not None else None,
        "player": ({"id": who.player.id, "name": who.player.name,
                    "game_id": who.player.game_id} if who.player is not None else None),
        "token": {"id": who.token.id, "label": who.token.label,
                  "created_at": iso(who.token.created_at)},
    }


@bp.get("/games")
def list_games():
    """The games the caller plays in or runs, newest first."""
    who = caller()
    return {"games": [game_summary(g, my_roles(who, g)) for g in access.games_of(who.viewer)
                      if who.may_see(g)]}


@bp.get(f"/games/{GAME_ID}")
def get_game(game_id: int):
    """Public facts of one game; the players' addresses for its game master only."""
    game = visible_game(game_id)
    return game_detail(game, my_roles(caller(), game))


@bp.get(f"/games/{GAME_ID}/rounds")
def list_rounds(game_id: int):
    """Every round so far with its deadline and state."""
    game = visible_game(game_id)
    return {"game_id": game.id, "rounds": [round_full(r) for r in game.rounds_]}


@bp.get(f"/games/{GAME_ID}/rounds/{ROUND_NO}/report")
def round_report(game_id: int, number: int):
    """A resolved round's report; the distribution and salt only in the final one."""
    game = visible_game(game_id)
    lang = inputs.query_choice("lang", LANGUAGES, game.language)
    return reports.build_report(game, number, lang).to_json()


@bp.get(f"/games/{GAME_ID}/standings")
def standings(game_id: int):
    """Totals and ranks after the latest resolved round (empty before the first)."""
    game = visible_game(game_id)
    try:
        report = reports.build_report(game, None, game.language)
    except NotFound:
        return {"game_id": game.id, "after_round": None, "final": False, "rows": []}
    return {"game_id": game.id, "after_round": report.round, "final": report.final,
            "rows": [{"player": r.player, "total": r.total, "rank": r.rank,
                      "points": r.points} for r in report.rows]}


@bp.post("/games")
def create_game():
    """A new game in setup, run by the calling game master."""
    who = caller()
    if who.game_master is None:
        raise access.Forbidden(N_("only game masters create games; this is a player's token"))
    body = inputs.json_object({"name", "language", "schedule", "rules", "reminder_hours"},
                              {"name", "schedule"})
    name = inputs.line(body["name"], "name", 120)
    language = inputs.choice(body.get("language", "en"), "language", LANGUAGES)
    hours = None
    if "reminder_hours" in body:
        hours = [inputs.integer(h, f"reminder_hours[{i}]", 1, 336) for i, h in
                 enumerate(inputs.array(body["reminder_hours"], "reminder_hours", 10))]
    rules = _rules(body["rules"]) if "rules" in body else None
    after_early = "calendar"
    if "after_early" in body.get("rules", {}):
        after_early = inputs.choice(body["rules"]["after_early"], "rules.after_early",
                                    AFTER_EARLY)
    aid = inputs.boolean(body.get("rules", {}).get("deduction_aid", False), "rules.deduction_aid")
    missed = inputs.choice(body.get("rules", {}).get("missed_turn_rule", "none"),
                           "rules.missed_turn_rule", MISSED_TURN_RULES)
    game = games.create_game(name, _schedule(body["schedule"]), rules,
                             language=language, actor=who.actor,
                             game_master_id=who.game_master.id, reminder_hours=hours,
                             after_early=after_early, deduction_aid=aid,
                             missed_turn_rule=missed)
    location = url_for("api.get_game", game_id=game.id)
    return game_detail(game, my_roles(who, game)), 201, {"Location": location}


def _schedule(value) -> Schedule:
    if not isinstance(value, dict):
        raise BadInput("schedule", N_("must be an object: {timezone, first, every_days} or "
                                      "{timezone, deadlines, every_days}"))
    unknown = sorted(set(value) - {"timezone", "first", "every_days", "deadlines"})
    if unknown:
        raise BadInput(f"schedule.{unknown[0]}", N_("unknown field; give timezone, first or "
                                                    "deadlines, and every_days"))
    if "timezone" not in value:
        raise BadInput("schedule.timezone", N_("this field is required, e.g. 'Europe/Berlin'"))
    timezone = inputs.line(value["timezone"], "schedule.timezone", 64)
    every = inputs.integer(value.get("every_days", 7), "schedule.every_days", 1, 28)
    if ("first" in value) == ("deadlines" in value):
        raise BadInput("schedule", N_("give either first (a local time; then every every_days "
                                      "days) or deadlines (a list), not both or neither"))
    try:
        if "first" in value:
            first = inputs.schedule_time(value["first"], "schedule.first")
            if isinstance(first, datetime) and first.tzinfo is not None:
                raise BadInput("schedule.first", N_("give a local time without an offset, like "
                                                    "'2026-12-06 20:00'; the timezone is "
                                                    "separate"))
            return weekly(first, timezone, every)
        items = inputs.array(value["deadlines"], "schedule.deadlines", 52, 1)
        return explicit([inputs.schedule_time(d, f"schedule.deadlines[{i}]")
                         for i, d in enumerate(items)], timezone, every)
    except ScheduleError as exc:
        raise BadInput("schedule", exc.message_id, **exc.params) from None


_RULE_RANGES = {"rounds": (1, 52), "first_bonus_round": (1, 52), "points_right": (1, 99),
                "points_wrong": (-99, 0)}


def _rules(value) -> Ruleset:
    if not isinstance(value, dict):
        raise BadInput("rules", N_("must be an object of house rules"))
    allowed = set(_RULE_RANGES) | {"bonuses", "early_resolution", "after_early",
                                   "deduction_aid", "missed_turn_rule"}
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise BadInput(f"rules.{unknown[0]}", N_("unknown house rule; the house rules are "
                                                 "{rules}"), rules=", ".join(sorted(allowed)))
    fields = {name: inputs.integer(value[name], f"rules.{name}", *limits)
              for name, limits in _RULE_RANGES.items() if name in value}
    if "bonuses" in value:
        fields["bonuses"] = tuple(
            inputs.integer(b, f"rules.bonuses[{i}]", 0, 99)
            for i, b in enumerate(inputs.array(value["bonuses"], "rules.bonuses", 10)))
    if "early_resolution" in value:
        fields["early_resolution"] = inputs.boolean(value["early_resolution"],
                                                    "rules.early_resolution")
    try:
        return Ruleset(**fields)
    except RulesetError as exc:
        raise BadInput("rules", str(exc)) from None
