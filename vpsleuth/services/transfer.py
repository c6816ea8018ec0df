"""Export a whole game as JSON, import it into another instance, and re-verify it.

The export holds settings, players, rounds, every turn version, the standing
turns, results and the audit log. The secret (distribution and salt) and the
per-tip counts behind the published sums go in only for the GM
(``with_secret``) or once the game has ended.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from ..extensions import db
from ..models import (
    AuditEntry,
    BoardPost,
    Game,
    GameSecret,
    Player,
    Round,
    RoundResult,
    StandingQuestion,
    StandingTip,
    TurnVersion,
)
from ..rules import Distribution, Question, resolve, verify_commitment
from .errors import Invalid
from .games import check_after_early, check_missed_turn_rule
from .resolution import round_turns

FORMAT = "vpsleuth-game/1"
_GAME_FIELDS = ("name", "state", "language", "timezone", "schedule_json", "rounds",
                "first_bonus_round", "bonuses", "points_right", "points_wrong",
                "early_resolution", "reminder_hours", "commitment", "created_at", "started_at",
                "paused_at", "finished_at", "after_early", "max_players", "deduction_aid",
                "missed_turn_rule")
# Not open_to_join: an imported game has no GM account here to decide requests.
_PLAYER_FIELDS = ("id", "name", "email", "language", "timezone", "active", "joined_at",
                  "withdrawn_at", "wants_round_mail", "wants_reminders", "wants_confirmations",
                  "first_signed_in_at")
_ROUND_FIELDS = ("number", "deadline", "state", "opened_at", "resolved_at")
_VERSION_FIELDS = ("id", "player_id", "channel", "text", "received_at", "entered_by",
                   "status", "errors")
# The game's board: every post as stored (hidden ones with their text, deleted ones without).
_POST_FIELDS = ("player_id", "author", "body", "channel", "pinned", "created_at", "hidden_at",
                "hidden_by", "deleted_at")
_RESULT_PUBLIC = ("player_id", "submitted", "tips", "tip_score", "bonus", "points", "total",
                  "rank")


def _row(obj, fields) -> dict:
    out = {}
    for f in fields:
        value = getattr(obj, f)
        out[f] = value.isoformat() if isinstance(value, datetime) else value
    return out


def _rows(model, *where, order=None):
    return db.session.scalars(select(model).where(*where).order_by(order or model.id)).all()


def export_game(game: Game, *, with_secret: bool = False) -> dict:
    """The whole game as JSON-able data."""
    reveal = with_secret or game.state == "finished"
    round_ids = {r.id: r.number for r in game.rounds_}
    rounds = []
    for r in game.rounds_:
        entry = _row(r, _ROUND_FIELDS)
        entry["questions"] = [
            {"player_id": q.player_id, "question": q.question, "answer": q.answer,
             "version_id": q.version_id}
            for q in _rows(StandingQuestion, StandingQuestion.round_id == r.id)]
        entry["tips"] = [
            {"player_id": t.player_id, "gem": t.gem, "location": t.location,
             "version_id": t.version_id}
            for t in _rows(StandingTip, StandingTip.round_id == r.id)]
        fields = _RESULT_PUBLIC + (("correct", "wrong") if reveal else ())
        entry["results"] = [_row(x, fields)
                            for x in _rows(RoundResult, RoundResult.round_id == r.id)]
        rounds.append(entry)
    versions = []
    for v in _rows(TurnVersion, TurnVersion.game_id == game.id):
        item = _row(v, _VERSION_FIELDS)
        item["round"] = round_ids.get(v.round_id)
        versions.append(item)
    data = {
        "format": FORMAT,
        "game": _row(game, _GAME_FIELDS),
        "players": [_row(p, _PLAYER_FIELDS) for p in game.players],
        "rounds": rounds,
        "turn_versions": versions,
        "audit": [_row(a, ("at", "actor", "action", "detail"))
                  for a in _rows(AuditEntry, AuditEntry.game_id == game.id)],
        "board": [_row(p, _POST_FIELDS) for p in _rows(BoardPost, BoardPost.game_id == game.id)],
    }
    if reveal and game.secret is not None:
        data["secret"] = {"distribution": game.secret.distribution, "salt": game.secret.salt}
    return data


def _time(value):
    return datetime.fromisoformat(value) if value else None


def _set(obj, data: dict, fields, times=()) -> None:
    for f in fields:
        if f in data and f != "id":
            setattr(obj, f, _time(data[f]) if f in times else data[f])


def import_game(data: dict, *, name: str | None = None) -> Game:
    """Recreate an exported game here (new ids); all in one transaction."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Invalid(f"not a vpsleuth game export (expected format {FORMAT!r})")
    g = data["game"]
    if g["state"] != "setup" and "secret" not in data:
        raise Invalid("this export has no secret; export it as the GM (--with-secret)")
    game = Game()
    _set(game, g, _GAME_FIELDS, times=("created_at", "started_at", "paused_at", "finished_at"))
    check_after_early(g.get("after_early", "calendar"))  # exports before it keep the calendar
    check_missed_turn_rule(g.get("missed_turn_rule", "none"))
    game.name = (name or g["name"]).strip()
    if db.session.scalar(select(Game.id).where(Game.name == game.name)):
        raise Invalid(f"a game called {game.name!r} exists already; import it under a new name")
    db.session.add(game)
    if "secret" in data:
        Distribution.from_canonical(data["secret"]["distribution"])  # refuse a broken deal
        game.secret = GameSecret(**data["secret"])
    players, rounds, versions = {}, {}, {}
    for p in data["players"]:
        player = Player(game=game)
        _set(player, p, _PLAYER_FIELDS, times=("joined_at", "withdrawn_at", "first_signed_in_at"))
        db.session.add(player)
        players[p["id"]] = player
    for r in data["rounds"]:
        round_ = Round(game=game)
        _set(round_, r, _ROUND_FIELDS, times=("deadline", "opened_at", "resolved_at"))
        db.session.add(round_)
        rounds[r["number"]] = round_
    db.session.flush()
    for v in data["turn_versions"]:
        version = TurnVersion(game_id=game.id, player_id=players[v["player_id"]].id,
                              round_id=rounds[v["round"]].id if v["round"] else None)
        _set(version, v, _VERSION_FIELDS[2:], times=("received_at",))
        db.session.add(version)
        versions[v["id"]] = version
    db.session.flush()
    for r in data["rounds"]:
        rid = rounds[r["number"]].id
        for q in r["questions"]:
            db.session.add(StandingQuestion(round_id=rid, player_id=players[q["player_id"]].id,
                                            question=q["question"], answer=q["answer"],
                                            version_id=versions[q["version_id"]].id))
        for tip in r["tips"]:  # not "t": pybabel would take t["gem"] for a text to translate
            db.session.add(StandingTip(round_id=rid, player_id=players[tip["player_id"]].id,
                                       gem=tip["gem"], location=tip["location"],
                                       version_id=versions[tip["version_id"]].id))
        for x in r["results"]:
            result = RoundResult(round_id=rid, player_id=players[x["player_id"]].id)
            _set(result, x, _RESULT_PUBLIC[1:] + ("correct", "wrong"))
            db.session.add(result)
    for a in data["audit"]:
        db.session.add(AuditEntry(game_id=game.id, at=_time(a["at"]), actor=a["actor"],
                                  action=a["action"], detail=a["detail"]))
    for b in data.get("board", []):  # exports before the board have none
        post = BoardPost(game_id=game.id, player_id=players[b["player_id"]].id
                         if b["player_id"] is not None else None)
        _set(post, b, _POST_FIELDS[1:], times=("created_at", "hidden_at", "deleted_at"))
        db.session.add(post)
    db.session.commit()
    return game


@dataclass(frozen=True)
class Mismatch:
    round: int
    player: str
    what: str
    published: object
    recomputed: object


def reverify(game: Game) -> list[Mismatch]:
    """Recompute every resolved round from stored turns and the distribution.

    Returns the differences from the published results (empty: all agree).
    The commitment is checked first.
    """
    if game.secret is None:
        raise Invalid(f"{game.name!r} has no distribution to check against")
    if not verify_commitment(game.secret.distribution, game.secret.salt, game.commitment or ""):
        return [Mismatch(0, "-", "commitment", game.commitment, "does not match the secret")]
    dist = Distribution.from_canonical(game.secret.distribution)
    names = {p.id: p.name for p in game.players}
    found: list[Mismatch] = []
    totals: dict[int, int] = {}
    for r in (r for r in game.rounds_ if r.state == "resolved"):
        published = {x.player_id: x for x in _rows(RoundResult, RoundResult.round_id == r.id)}
        turns, questions = round_turns(r)
        outcome = resolve(r.number, turns, list(published), dist, game.ruleset)
        for p, q in questions.items():
            answer = Question.from_codes(q.question).answer(dist)
            if q.answer != answer:
                found.append(Mismatch(r.number, names[p], "answer", q.answer, answer))
        for p, res in outcome.results.items():
            totals[p] = totals.get(p, 0) + res.points
            for field, value in (("tip_score", res.tip_score), ("bonus", res.bonus),
                                 ("points", res.points), ("total", totals[p])):
                if getattr(published[p], field) != value:
                    found.append(Mismatch(r.number, names[p], field,
                                          getattr(published[p], field), value))
    return found


def dumps(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True)
