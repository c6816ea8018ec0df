"""Benchmark: a scheduler tick over 1,000 running games of which none is due.

    .venv/bin/python bench/idle_tick.py                  # both databases
    .venv/bin/python bench/idle_tick.py --db sqlite --games 200

Most ticks find nothing to do, and every running game is in each of them. Ours
is resolution.resolve_due(now) as the scheduler calls it, which reads only the
rounds that may be due (resolution.may_be_due: the deadline passed, or early
resolution with every active player's turn in). The baseline is the same call
reading every open round of every running game and asking is_due of each, as
the tick did before. The games are bench/data.py's (20 players, round 3 open,
5 tips each), a second before the first deadline.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import UTC, timedelta

from data import Sizes, build
from dbs import bench_app, server_version, temporary_database
from sqlalchemy import and_, func, select
from timing import load, table

from vpsleuth.extensions import db
from vpsleuth.models import Game, Round
from vpsleuth.services import resolution


def every_open_round(now):
    return [and_(Round.state == "open", Game.state == "running")]


def timed(repeat: int, now) -> float:
    times = []
    for _ in range(repeat):
        db.session.remove()
        start = time.perf_counter()
        assert resolution.resolve_due(now) == []
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql"), action="append")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = []
    for kind in args.db or ("sqlite", "postgresql"):
        with temporary_database(kind) as url, bench_app(url, kind):
            with db.engine.begin() as conn:
                build(conn, Sizes(games=args.games, players=20, tips=5, round_number=3))
            first = db.session.scalar(select(func.min(Round.deadline)).where(
                Round.state == "open"))
            now = first.replace(tzinfo=first.tzinfo or UTC) - timedelta(seconds=1)
            ours = timed(args.repeat, now)
            ours_at = resolution.may_be_due
            resolution.may_be_due = every_open_round
            try:
                baseline = timed(args.repeat, now)
            finally:
                resolution.may_be_due = ours_at
            rows.append((server_version(kind), f"{args.games:,}",
                         f"{ours * 1000:.1f}", f"{baseline * 1000:.1f}",
                         f"{baseline / ours:.0f}x"))
    print(table([("database", "running games", "ours ms", "every open round ms", "ratio"),
                 *rows]))
    print(f"median of {args.repeat}; {load()}")


if __name__ == "__main__":
    main()
