"""The baseline: a round resolved with plain text SQL and dicts, no ORM, no mail.

It does the work any implementation must do, in one transaction: claim the
round, read the house rules, the distribution, the active players, every tip
and question and the previous totals; count right and wrong tips per player,
award the rank bonuses, rank the totals; store the answers and the result
rows; close the round and open the next one. It writes no mail, no audit entry
and no report: the ratio ours/baseline prices those, and the ORM.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import DateTime, bindparam, text
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import TextClause


def _naive(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(tzinfo=None)


def _timed(sql: str, *names: str) -> TextClause:
    """Text SQL whose named parameters are datetimes (stored the way SQLAlchemy does)."""
    return text(sql).bindparams(*(bindparam(n, type_=DateTime()) for n in names))


def _answer(holding: dict[str, list[str]], codes: str) -> int:
    """``E:BO`` -> how many gems at E are blue opals (a gem code is colour+kind+size)."""
    place, _, attrs = codes.partition(":")
    return sum(1 for gem in holding[place] if all(a in gem for a in attrs))


def resolve_raw(conn: Connection, round_id: int, now: datetime) -> int | None:
    """Resolve one open round; its game's id, or None if someone else claimed it first.

    The caller commits.
    """
    claimed = conn.execute(text(
        "UPDATE round SET state = 'resolving' WHERE id = :id AND state = 'open'"),
        {"id": round_id}).rowcount
    if claimed != 1:
        return None
    game_id, number = conn.execute(text("SELECT game_id, number FROM round WHERE id = :id"),
                                   {"id": round_id}).one()
    rounds, first_bonus, bonuses, right, wrong, distribution = conn.execute(text(
        "SELECT g.rounds, g.first_bonus_round, g.bonuses, g.points_right, g.points_wrong, "
        "s.distribution FROM game g JOIN game_secret s ON s.game_id = g.id WHERE g.id = :g"),
        {"g": game_id}).one()
    location: dict[str, str] = {}
    holding: dict[str, list[str]] = {}
    for part in distribution.split(";"):
        place, _, gems = part.partition("=")
        holding[place] = gems.split(",") if gems else []
        for gem in holding[place]:
            location[gem] = place
    active = conn.execute(text("SELECT id FROM player WHERE game_id = :g AND active"),
                          {"g": game_id}).scalars().all()
    correct = dict.fromkeys(active, 0)
    tips = dict.fromkeys(active, 0)
    for player, gem, loc in conn.execute(text(
            "SELECT player_id, gem, location FROM standing_tip WHERE round_id = :r"),
            {"r": round_id}):
        if player in tips:
            tips[player] += 1
            correct[player] += location[gem] == loc
    asked = conn.execute(text(
        "SELECT id, player_id, question FROM standing_question WHERE round_id = :r"),
        {"r": round_id}).all()
    previous = dict(conn.execute(text(
        "SELECT rr.player_id, rr.total FROM round_result rr JOIN round r ON r.id = rr.round_id "
        "WHERE r.game_id = :g AND r.number = :n"), {"g": game_id, "n": number - 1}).all())

    award = dict.fromkeys(active, 0)
    if number >= first_bonus:
        values = [int(b) for b in bonuses.split(",") if b.strip()]
        best = sorted({c for c in correct.values() if c > 0}, reverse=True)[:len(values)]
        bonus_of = dict(zip(best, values, strict=False))
        award = {p: bonus_of.get(correct[p], 0) for p in active}
    submitted = {p for _, p, _ in asked} | {p for p in active if tips[p]}
    rows, totals = [], {}
    for p in active:
        score = correct[p] * right + (tips[p] - correct[p]) * wrong
        totals[p] = previous.get(p, 0) + score + award[p]
        rows.append({"round_id": round_id, "player_id": p, "submitted": p in submitted,
                     "tips": tips[p], "correct": correct[p], "wrong": tips[p] - correct[p],
                     "tip_score": score, "bonus": award[p], "points": score + award[p],
                     "total": totals[p]})
    rank_of: dict[int, int] = {}
    for i, total in enumerate(sorted(totals.values(), reverse=True)):
        rank_of.setdefault(total, i + 1)
    for row in rows:
        row["rank"] = rank_of[row["total"]]

    cache: dict[str, int] = {}
    answers = [{"id": qid, "answer": cache.setdefault(codes, _answer(holding, codes))}
               for qid, _, codes in asked]
    if answers:
        conn.execute(text("UPDATE standing_question SET answer = :answer WHERE id = :id"),
                     answers)
    conn.execute(text(
        "INSERT INTO round_result (round_id, player_id, submitted, tips, correct, wrong, "
        "tip_score, bonus, points, total, rank) VALUES (:round_id, :player_id, :submitted, "
        ":tips, :correct, :wrong, :tip_score, :bonus, :points, :total, :rank)"), rows)
    stamp = _naive(now)
    conn.execute(_timed("UPDATE round SET state = 'resolved', resolved_at = :t WHERE id = :id",
                        "t"),
                 {"t": stamp, "id": round_id})
    solved = bool(rows) and all(r["correct"] == 36 and r["wrong"] == 0 for r in rows)
    if number >= rounds or solved:
        conn.execute(_timed("UPDATE game SET state = 'finished', finished_at = :t WHERE id = :g",
                            "t"),
                     {"t": stamp, "g": game_id})
    else:
        conn.execute(_timed(
            "INSERT INTO round (game_id, number, deadline, state, opened_at) "
            "VALUES (:g, :n, :d, 'open', :t)", "d", "t"),
            {"g": game_id, "n": number + 1, "d": stamp + timedelta(days=7), "t": stamp})
    return game_id


def due_rounds(conn: Connection, now: datetime) -> list[int]:
    """The ids of the open rounds of running games whose deadline has passed."""
    return conn.execute(_timed(
        "SELECT r.id FROM round r JOIN game g ON g.id = r.game_id WHERE r.state = 'open' "
        "AND g.state = 'running' AND r.deadline <= :now ORDER BY r.id", "now"),
        {"now": _naive(now)}).scalars().all()
