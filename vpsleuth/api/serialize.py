"""Models and service results as JSON-able dicts (the shapes openapi.json describes).

Only public facts go out: no distribution, no salt before the final report and
no per-tip correctness (RoundResult.correct/wrong are never read here).
"""

from __future__ import annotations

import json
from datetime import datetime

from ..i18n.schedule_words import schedule_text
from ..models import AuditEntry, Game, Player, Round, TurnVersion
from ..orders import format_turn
from ..rules import Question, Turn
from ..rules.schedule import Schedule
from ..services.standing_turns import TurnStatus


def iso(moment: datetime | None) -> str | None:
    """An aware time as ISO 8601 with its offset (UTC), or None."""
    return moment.isoformat() if moment is not None else None


def round_brief(round_: Round | None) -> dict | None:
    """A round's number, state and deadline (None for no round)."""
    if round_ is None:
        return None
    return {"number": round_.number, "state": round_.state, "deadline": iso(round_.deadline)}


def round_full(round_: Round) -> dict:
    """A round with when it opened and was resolved."""
    return {**round_brief(round_), "opened_at": iso(round_.opened_at),
            "resolved_at": iso(round_.resolved_at)}


def roles(game: Game, is_gm: bool, plays: bool) -> list[str]:
    """The caller's roles in a game, as listed in the API."""
    return [role for role, yes in (("game_master", is_gm), ("player", plays)) if yes]


def game_summary(game: Game, my_roles: list[str]) -> dict:
    """A game in a list: id, name, state, the caller's roles, the open round."""
    return {"id": game.id, "name": game.name, "state": game.state, "roles": my_roles,
            "open_round": round_brief(game.open_round)}


def player_json(player: Player, for_gm: bool) -> dict:
    """A player: name and active flag; address, language and dates for the GM."""
    data = {"id": player.id, "name": player.name, "active": player.active}
    if for_gm:
        data.update(email=player.email, language=player.language,
                    joined_at=iso(player.joined_at), withdrawn_at=iso(player.withdrawn_at))
    return data


def game_detail(game: Game, my_roles: list[str]) -> dict:
    """Public facts of a game; players' addresses only for its game master."""
    for_gm = "game_master" in my_roles
    rules = game.ruleset
    schedule = game.schedule
    resolved = sum(1 for r in game.rounds_ if r.state == "resolved")
    return {
        **game_summary(game, my_roles),
        "language": game.language,
        "timezone": game.timezone,
        "rules": {"rounds": rules.rounds, "first_bonus_round": rules.first_bonus_round,
                  "bonuses": list(rules.bonuses), "points_right": rules.points_right,
                  "points_wrong": rules.points_wrong,
                  "early_resolution": rules.early_resolution,
                  "after_early": game.after_early,
                  "deduction_aid": game.deduction_aid,
                  "missed_turn_rule": game.missed_turn_rule},
        "reminder_hours": game.reminders,
        "schedule": {**schedule, "description":
                     schedule_text(Schedule.from_json(schedule), game.language)},
        "commitment": game.commitment,
        "rounds_resolved": resolved,
        "players": [player_json(p, for_gm) for p in game.players],
        "created_at": iso(game.created_at),
        "started_at": iso(game.started_at),
        "paused_at": iso(game.paused_at),
        "finished_at": iso(game.finished_at),
    }


def question_json(question: Question | None) -> dict | None:
    """A question as placeholder and attribute codes."""
    if question is None:
        return None
    return {"placeholder": question.placeholder,
            "attributes": [a.code for a in question.attributes]}


def turn_json(game: Game, round_: Round, player: Player, standing: Turn) -> dict:
    """A player's standing turn, structured and as turn-language text."""
    return {
        "game_id": game.id,
        "round": round_.number,
        "deadline": iso(round_.deadline),
        "player": {"id": player.id, "name": player.name},
        "question": question_json(standing.question),
        "tips": {gem.code: location for gem, location in
                 sorted(standing.tips.items(), key=lambda item: item[0].sort_key)},
        "text": format_turn(standing.question, standing.tips, player.language),
    }


def version_json(version: TurnVersion) -> dict:
    """One stored turn version (how and when it came, who entered it)."""
    return {"id": version.id, "channel": version.channel, "status": version.status,
            "received_at": iso(version.received_at), "entered_by": version.entered_by}


def status_json(game: Game, rows: list[TurnStatus]) -> dict:
    """The GM's status board: who has a turn in, counts only."""
    round_ = game.open_round
    return {
        "game_id": game.id,
        "state": game.state,
        "round": round_brief(round_),
        "submitted": sum(1 for r in rows if r.submitted),
        "players": [{"id": r.player.id, "name": r.player.name, "submitted": r.submitted,
                     "last_at": iso(r.last_at), "channel": r.channel,
                     "has_question": r.has_question, "tips": r.tips} for r in rows],
    }


def audit_json(entry: AuditEntry) -> dict:
    """One audit entry, its detail parsed back from JSON."""
    try:
        detail = json.loads(entry.detail) if entry.detail else {}
    except ValueError:
        detail = {"text": entry.detail}
    if not isinstance(detail, dict):
        detail = {"value": detail}
    return {"id": entry.id, "at": iso(entry.at), "actor": entry.actor, "action": entry.action,
            "detail": detail}
