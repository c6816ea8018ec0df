"""Benchmark: one scheduler tick resolving 1,000 due games of 20 players; ours against raw SQL.

    .venv/bin/python bench/scheduler_tick.py                    # both databases
    .venv/bin/python bench/scheduler_tick.py --games 100 --db sqlite --repeat 2
    .venv/bin/python bench/scheduler_tick.py --schedulers 1,2   # PostgreSQL: 1 and 2 at once

With ``--schedulers``, the tick runs in that many scheduler processes at once
(each its own Python process and connection, started and connected before the
clock starts), on PostgreSQL, where several schedulers divide the due rounds
(services/claims.py); the figure is the wall clock until the last one is done,
with how many rounds each resolved and the check that every round was resolved
exactly once. SQLite allows one scheduler at a time (a second one waits), so
there it is not measured.

Ours is vpsleuth.services.resolution.resolve_due(now), which the scheduler's
deadline job calls: it finds the due rounds and resolves each in a transaction
of its own, queuing the report and round-opened mails. The baseline finds the
due rounds with one query and resolves each with bench/baseline.py, one
transaction per game as well (a crash must not undo or repeat other games).
Target: at most 30 s.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from baseline import due_rounds, resolve_raw
from data import NOW, Sizes, build, reset
from dbs import bench_app, server_version, start_afresh, temporary_database
from harness import Mails, Subject, arguments, main, store_mails
from sqlalchemy import func, select
from timing import load, table

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, Round
from vpsleuth.services.resolution import resolve_due


def subject_for(sizes: Sizes):
    def make(game_ids: list[int]) -> Subject:
        def ours() -> None:
            done = resolve_due(NOW)
            if len(done) != sizes.games:
                raise SystemExit(f"resolve_due resolved {len(done)} of {sizes.games} rounds")

        def raw(mails: Mails | None) -> None:
            with db.engine.connect() as conn:
                due = due_rounds(conn, NOW)
            for round_id in due:
                with db.engine.begin() as conn:
                    game_id = resolve_raw(conn, round_id, NOW)
                    if mails and game_id is not None:
                        store_mails(conn, mails[game_id])
            if len(due) != sizes.games:
                raise SystemExit(f"the baseline found {len(due)} of {sizes.games} rounds due")

        return Subject(ours, raw)

    return make


def child(url: str) -> None:
    """One scheduler process: connect, say ready, wait for the go, run the tick, report."""
    with bench_app(url, "postgresql"):
        db.session.execute(select(1))
        print("ready", flush=True)
        sys.stdin.readline()
        start = time.perf_counter()
        done = resolve_due(NOW)
        print(json.dumps({"resolved": len(done), "seconds": time.perf_counter() - start}),
              flush=True)


def tick_by(count: int, url: str) -> tuple[float, list[int]]:
    """One tick run by ``count`` scheduler processes at once: wall seconds, rounds each."""
    processes = [subprocess.Popen([sys.executable, __file__, "--child", url], text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                 for _ in range(count)]
    try:
        for process in processes:
            if process.stdout.readline().strip() != "ready":
                raise SystemExit("a scheduler process failed to start")
        start = time.perf_counter()
        for process in processes:
            process.stdin.write("go\n")
            process.stdin.flush()
        reports = [json.loads(process.stdout.readline()) for process in processes]
        wall = time.perf_counter() - start
    finally:
        for process in processes:
            process.stdin.close()
            process.wait(timeout=60)
    return wall, [r["resolved"] for r in reports]


def schedulers(counts: list[int], sizes: Sizes, repeat: int) -> None:
    """The tick over ``sizes.games`` due games by 1, 2, ... schedulers, side by side."""
    rows = [("schedulers", "median", "min", "rounds each (last run)", "vs one")]
    with temporary_database("postgresql") as url, bench_app(url, "postgresql"):
        with db.engine.begin() as conn:
            build(conn, sizes)
        print(f"[postgresql] {server_version('postgresql')}; {sizes.games} games due; {load()}",
              flush=True)
        medians: dict[int, float] = {}
        for count in counts:
            walls, shares = [], []
            for _ in range(repeat + 1):  # the first is the warm-up
                start_afresh("postgresql", lambda conn: reset(conn, sizes))
                db.session.remove()
                wall, shares = tick_by(count, url)
                resolved = db.session.scalar(select(func.count()).select_from(AuditEntry).where(
                    AuditEntry.action == "resolve_round"))
                open_left = db.session.scalar(select(func.count()).select_from(Round).where(
                    Round.number == sizes.round_number, Round.state == "open"))
                if sum(shares) != sizes.games or open_left:
                    raise SystemExit(f"{count} schedulers resolved {shares} of {sizes.games}, "
                                     f"{open_left} left open")
                walls.append(wall)
                db.session.remove()
            walls = walls[1:]
            medians[count] = statistics.median(walls)
            rows.append((str(count), f"{medians[count]:.2f} s", f"{min(walls):.2f} s",
                         " + ".join(map(str, shares)),
                         f"{medians[counts[0]] / medians[count]:.2f}x"))
            print(f"[postgresql] {count} scheduler(s): {rows[-1][1]}; audit rows "
                  f"{resolved} (each round once); {load()}", flush=True)
    print()
    print(f"scheduler tick by several schedulers at once: {sizes.games} due games of "
          f"{sizes.players} players, PostgreSQL, {repeat} runs after a warm-up, wall clock")
    print(table(rows))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2])
        raise SystemExit(0)
    parser = arguments(__doc__.split("\n")[0], repeat=3, games=1000, players=20, tips=36)
    parser.add_argument("--schedulers", help="comma-separated counts, e.g. 1,2 (PostgreSQL)")
    args = parser.parse_args()
    sizes = Sizes(games=args.games, players=args.players, tips=args.tips,
                  round_number=args.round_number)
    if args.schedulers:
        schedulers([int(n) for n in args.schedulers.split(",")], sizes, args.repeat)
        raise SystemExit(0)
    main(f"scheduler tick (resolve_due): {sizes.games} games of {sizes.players} players, "
         f"each with {sizes.tips} tips and a question, round {sizes.round_number}",
         sizes, args, subject_for(sizes))
