"""The games the benchmarks resolve: running, their open round due, every turn full.

Each player of each game has a question and ``tips`` tips (right with a
probability drawn per player, so scores and ranks spread) standing in the open
round; every earlier round has its published results, as the report's
standings history needs them, and its mails sent (a report shared by all
players and a round-opened mail each; short bodies): a game at round 5 has
mail behind it, and PostgreSQL plans the checks of the outbox's foreign keys
by the table's size (on a table it believes empty, a scan per row). Seeded,
so every run resolves the same data.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from dbs import after_load, bulk_load
from sqlalchemy import text
from sqlalchemy.engine import Connection

from vpsleuth.rules import (
    ATTRIBUTES,
    GEMS,
    LOCATIONS,
    PLACEHOLDERS,
    QuestionError,
    commitment,
    deal,
    make_question,
)
from vpsleuth.rules.schedule import to_local, weekly

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
ZONE = "Europe/Berlin"


@dataclass(frozen=True)
class Sizes:
    games: int
    players: int  # per game; every tenth writes German
    tips: int  # per player, at most 36
    round_number: int  # the open round; the rounds before it are resolved


def _question(rng: random.Random) -> str:
    while True:
        attrs = rng.sample(ATTRIBUTES, rng.choice((1, 2)))
        try:
            return make_question(rng.choice(PLACEHOLDERS), attrs).codes
        except QuestionError:  # two attributes of one category
            continue


def build(conn: Connection, sizes: Sizes, seed: int = 1) -> list[int]:
    """Write the games (ids 1..games) with bulk statements; returns their ids."""
    rng = random.Random(seed)
    # The open round's deadline passed a week before NOW; the next one is 3 hours after.
    first = NOW + timedelta(hours=3) - timedelta(days=7 * sizes.round_number)
    schedule = weekly(to_local(first, ZONE).replace(tzinfo=None), ZONE)
    started = first - timedelta(days=7)
    rows: dict[str, list[dict]] = {t: [] for t in (
        "game", "game_secret", "player", "round", "round_result", "turn_version",
        "standing_question", "standing_tip", "mail_body", "outbox_message")}
    for g in range(1, sizes.games + 1):
        distribution = deal(seed * 100_003 + g)
        salt = f"{g:032x}"
        rows["game"].append(dict(
            id=g, name=f"Bench game {g}", state="running", language="en", timezone=ZONE,
            schedule_json=json.dumps(schedule.to_json()), created_at=started,
            commitment=commitment(distribution, salt), started_at=started))
        rows["game_secret"].append(dict(game_id=g, distribution=distribution.canonical(),
                                        salt=salt))
        ids = []
        for i in range(sizes.players):
            pid = len(rows["player"]) + 1
            ids.append(pid)
            rows["player"].append(dict(id=pid, game_id=g, name=f"Player {i + 1:04d}",
                                       email=f"p{pid}@example.org", joined_at=started,
                                       language="de" if i % 10 == 9 else "en"))
        totals = dict.fromkeys(ids, 0)
        for number in range(1, sizes.round_number + 1):
            round_id = len(rows["round"]) + 1
            deadline = schedule.deadline(number)
            is_open = number == sizes.round_number
            rows["round"].append(dict(
                id=round_id, game_id=g, number=number, deadline=deadline,
                state="open" if is_open else "resolved", opened_at=deadline - timedelta(days=7),
                resolved_at=None if is_open else deadline))
            if is_open:
                _turns(rng, rows, g, round_id, ids, distribution, sizes.tips)
            else:
                rows["round_result"] += _results(rng, round_id, totals)
                _sent_mails(rows, g, number, ids, deadline)
    for table, table_rows in rows.items():
        bulk_load(conn, table, table_rows)
    after_load(conn)
    return [g["id"] for g in rows["game"]]


def _turns(rng: random.Random, rows: dict, game_id: int, round_id: int, players: list[int],
           distribution, tips: int) -> None:
    for p in players:
        version = len(rows["turn_version"]) + 1
        rows["turn_version"].append(dict(
            id=version, game_id=game_id, player_id=p, round_id=round_id, channel="email",
            text=b"REPEAT\n", received_at=NOW - timedelta(hours=2),
            entered_by=f"p{p}@example.org", status="accepted"))
        rows["standing_question"].append(dict(
            id=len(rows["standing_question"]) + 1, round_id=round_id, player_id=p,
            question=_question(rng), version_id=version))
        right = rng.random()
        for gem in rng.sample(GEMS, tips):
            location = distribution[gem] if rng.random() < right else rng.choice(LOCATIONS)
            rows["standing_tip"].append(dict(
                id=len(rows["standing_tip"]) + 1, round_id=round_id, player_id=p,
                gem=gem.code, location=location, version_id=version))


def _sent_mails(rows: dict, game_id: int, number: int, players: list[int],
                sent: datetime) -> None:
    """The mails of a resolved round: its report (one body for all) and the next round's."""
    report = len(rows["mail_body"]) + 1
    rows["mail_body"].append(dict(id=report, text=f"Report of round {number}", html=None))
    for p in players:
        opened = len(rows["mail_body"]) + 1
        rows["mail_body"].append(dict(id=opened, text=f"Round {number + 1} is open", html=None))
        for kind, body in (("report", report), ("round_opened", opened)):
            mail = len(rows["outbox_message"]) + 1
            rows["outbox_message"].append(dict(
                id=mail, kind=kind, game_id=game_id, player_id=p, to_addr=f"p{p}@example.org",
                subject=f"Round {number}", body_id=body, message_id=f"<{mail}.old@bench>",
                status="sent", attempts=1, created_at=sent, next_attempt_at=sent, sent_at=sent))


def history_size(sizes: Sizes) -> tuple[int, int]:
    """How many mail bodies and outbox mails build() writes for the resolved rounds."""
    rounds = sizes.games * (sizes.round_number - 1)
    return rounds * (sizes.players + 1), rounds * sizes.players * 2


def _results(rng: random.Random, round_id: int, totals: dict[int, int]) -> list[dict]:
    rows = []
    for p in totals:
        correct = rng.randint(0, 36)
        wrong = rng.randint(0, 36 - correct)
        points = correct - 2 * wrong
        totals[p] += points
        rows.append(dict(round_id=round_id, player_id=p, submitted=True, tips=correct + wrong,
                         correct=correct, wrong=wrong, tip_score=points, bonus=0,
                         points=points, total=totals[p]))
    rank: dict[int, int] = {}
    for i, total in enumerate(sorted(totals.values(), reverse=True)):
        rank.setdefault(total, i + 1)
    for row in rows:
        row["rank"] = rank[row["total"]]
    return rows


def reset(conn: Connection, sizes: Sizes) -> None:
    """Undo a resolution of the open rounds (ours or the baseline's), so it can run again."""
    opened = "SELECT id FROM round WHERE number = :n"
    bodies, mails = history_size(sizes)
    for sql in (
        f"DELETE FROM outbox_message WHERE id > {mails}",
        f"DELETE FROM mail_body WHERE id > {bodies}",
        "DELETE FROM audit_entry",
        f"DELETE FROM round_result WHERE round_id IN ({opened})",
        "DELETE FROM round WHERE number > :n",
        "UPDATE round SET state = 'open', resolved_at = NULL WHERE number = :n",
        f"UPDATE standing_question SET answer = NULL WHERE round_id IN ({opened})",
        "UPDATE game SET state = 'running', finished_at = NULL",
    ):
        conn.execute(text(sql), {"n": sizes.round_number})
