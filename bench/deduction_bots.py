"""Benchmark: the deduction engine on the records of bot games, the hardest it meets.

    .venv/bin/python bench/deduction_bots.py                 # 40 games, 480 records
    .venv/bin/python bench/deduction_bots.py --games 10 --seed 3 --timeout 10
    .venv/bin/python bench/deduction_bots.py --patience none # the engine alone

bench/deduction.py measures the records the issue names (random questions,
demo games). The hard bot asks the most revealing question every round, so
its games make records with more interlocking answers than any of those:
where the engine's exact search has the most to prove. This plays the games
of bench/bots.py (one bot per level) and, for every record the hard bot read
before its turns, times possible places (exact: the engine's search, and the
cells it left open after --patience seconds decided by CP-SAT) and counts and
chances (``analyse``), each in a child process cut off after --timeout seconds
(counted at the cut-off); then CP-SAT decides all 288 cells of the same
record (one solve per cell, one worker, as bench/deduction.py does) and the
two must agree. --cpsat-cache FILE keeps CP-SAT's times and places per record,
so a run before and after a change of the engine measures CP-SAT once.
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import sys
import time
from pathlib import Path

import bots  # bench/bots.py: bench/ is this script's own folder, so first on sys.path
from deduction import summarise  # bench/deduction.py, likewise

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cpsat_oracle import cpsat_possible  # noqa: E402

from vpsleuth.engine import Answered, analyse, possible_places  # noqa: E402
from vpsleuth.engine.analysis import PATIENCE  # noqa: E402
from vpsleuth.rules import Question  # noqa: E402


def as_text(answers: tuple[Answered, ...]) -> str:
    return " ".join(f"{a.question.codes}={a.answer}" for a in answers)


def as_places(places) -> dict[str, str]:
    return {g.code: "".join(sorted(p)) for g, p in places.items()}


def timed(answers: tuple[Answered, ...], patience: float | None) -> tuple[float, str, dict]:
    gc.collect()
    start = time.perf_counter()
    got = possible_places(answers, patience=patience)
    return time.perf_counter() - start, got.by, as_places(got)


def timed_analyse(answers: tuple[Answered, ...], patience: float | None,
                  ) -> tuple[float, bool, float]:
    gc.collect()
    start = time.perf_counter()
    got = analyse(answers, patience=patience)
    return time.perf_counter() - start, got.exact, got.relative_error


def hard_records(seed: int) -> list[tuple[Answered, ...]]:
    """The records the hard bot read before each of its turns in one game."""
    seen: list[tuple[Answered, ...]] = []
    decide = bots.decide

    def reading(record, me, level, rng):
        if level == "hard":
            seen.append(record.answers())
        return decide(record, me, level, rng)

    bots.decide = reading
    try:
        bots.play(seed)
    finally:
        bots.decide = decide
    return seen


class Child:
    """A child process to time in, replaced when a call is cut off."""

    def __init__(self, timeout: float):
        self.timeout, self.pool = timeout, multiprocessing.Pool(1)

    def run(self, func, *args):
        try:
            return self.pool.apply_async(func, args).get(timeout=self.timeout)
        except multiprocessing.TimeoutError:
            self.pool.terminate()
            self.pool = multiprocessing.Pool(1)
            return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1, help="first game: 1,000,000 + seed")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--patience", default=str(PATIENCE),
                        help="seconds before CP-SAT takes the open cells; none: never")
    parser.add_argument("--no-analyse", action="store_true", help="places only")
    parser.add_argument("--cpsat-cache", type=Path, default=None)
    parser.add_argument("--cpsat-over", type=float, default=0.0,
                        help="CP-SAT only where the engine took longer (and on every "
                             "--every-th other record); 0: on every record")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--no-cpsat", action="store_true",
                        help="the engine only (CP-SAT's figures joined from a cache later)")
    args = parser.parse_args()
    patience = None if args.patience == "none" else float(args.patience)
    first = 1_000_000 + args.seed
    print(f"games {first}..{first + args.games - 1} (--seed {args.seed}), "
          f"patience {patience}")
    cache = (json.loads(args.cpsat_cache.read_text())
             if args.cpsat_cache and args.cpsat_cache.exists() else {})
    child = Child(args.timeout)
    rows: list[dict] = []
    started = time.perf_counter()
    for game in range(first, first + args.games):
        for answers in hard_records(game):
            got = child.run(timed, answers, patience)
            took, by, mine = got if got is not None else (args.timeout, "cut off", None)
            key = as_text(answers)
            uniform = len(rows) % args.every == 0  # measured whatever it took
            skip = took <= args.cpsat_over and not uniform
            if (args.no_cpsat or skip) and key not in cache:
                cache[key] = (float("nan"), mine)
            elif key not in cache:
                gc.collect()
                start = time.perf_counter()
                oracle = cpsat_possible(answers)
                cache[key] = (time.perf_counter() - start, as_places(oracle))
            t_cp, oracle = cache[key]
            row = {"name": f"game {game}, {len(answers)} answers", "engine": took,
                   "cpsat": t_cp, "by": by, "agree": mine is None or mine == oracle,
                   "uniform": uniform}
            if not args.no_analyse:
                an = child.run(timed_analyse, answers, patience)
                row["analyse"], row["exact"], stated = an or (args.timeout, False, None)
                row["stated"] = None if row["exact"] else stated
            rows.append(row)
            print(f"  {row['name']}: engine {took:.3f} s ({by}), CP-SAT {t_cp:.3f} s"
                  + (f", analyse {row['analyse']:.3f} s exact {row['exact']} stated "
                     f"{row['stated']}" if "analyse" in row else "")
                  + f", agree {row['agree']}", flush=True)
    child.pool.terminate()
    if args.cpsat_cache and not args.no_cpsat:
        args.cpsat_cache.write_text(json.dumps({k: v for k, v in cache.items()
                                                if v[0] == v[0]}))  # measured ones
    print(f"\n{args.games} bot games, {len(rows)} records the hard bot read "
          f"({time.perf_counter() - started:.0f} s)")
    summarise(rows)
    print(f"  cut off at {args.timeout:g} s: {sum(r['by'] == 'cut off' for r in rows)}")


def parse(text: str) -> tuple[Answered, ...]:
    """A record as as_text writes it (for looking at one record again)."""
    return tuple(Answered(Question.from_codes(q), int(a))
                 for q, a in (item.split("=") for item in text.split()))


if __name__ == "__main__":
    main()
