"""Benchmark: the deduction engine on the records of bot games, the hardest it meets.

    .venv/bin/python bench/deduction_bots.py                 # 40 games, about 5 minutes
    .venv/bin/python bench/deduction_bots.py --games 10 --seed 3 --timeout 10

bench/deduction.py measures the records the issue names (random questions,
demo games). The hard bot asks the most revealing question every round, so
its games make records with more interlocking answers than any of those:
where the engine's exact search has the most to prove. This plays the games
of bench/bots.py (one bot per level) and, before each of the hard bot's
turns, times possible places on the record it reads, in a child process cut
off after --timeout seconds (counted at the cut-off). The slowest records are
then also decided by CP-SAT (one solve per cell, as bench/deduction.py does).
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

import bots  # bench/bots.py: bench/ is this script's own folder, so first on sys.path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cpsat_oracle import cpsat_possible  # noqa: E402

from vpsleuth.engine import Answered, possible_places  # noqa: E402


def timed(answers: tuple[Answered, ...]) -> float:
    gc.collect()
    start = time.perf_counter()
    possible_places(answers)
    return time.perf_counter() - start


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1, help="first game: 1,000,000 + seed")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--cpsat", type=int, default=5, help="slowest records CP-SAT decides")
    args = parser.parse_args()
    pool = multiprocessing.Pool(1)
    rows: list[tuple[float, int, tuple[Answered, ...]]] = []
    started = time.perf_counter()
    for game in range(1_000_000 + args.seed, 1_000_000 + args.seed + args.games):
        for answers in hard_records(game):
            try:
                took = pool.apply_async(timed, (answers,)).get(timeout=args.timeout)
            except multiprocessing.TimeoutError:
                pool.terminate()
                pool = multiprocessing.Pool(1)
                took = args.timeout
            rows.append((took, game, answers))
    pool.terminate()
    times = sorted(t for t, _, _ in rows)
    print(f"{args.games} bot games, {len(times)} records the hard bot read "
          f"({time.perf_counter() - started:.0f} s)")
    print(f"possible places: median {statistics.median(times):.3f} s, "
          f"90th percentile {times[int(0.9 * len(times))]:.3f} s, max {times[-1]:.2f} s")
    for bound in (0.1, 1.0, 5.0):
        print(f"  within {bound:g} s: {sum(t <= bound for t in times)}/{len(times)}")
    print(f"  cut off at {args.timeout:g} s: {sum(t >= args.timeout for t in times)}")
    print("\nslowest records, beside CP-SAT (288 cells, one solve each):")
    for took, game, answers in sorted(rows, key=lambda r: -r[0])[:args.cpsat]:
        start = time.perf_counter()
        cpsat_possible(answers)
        cp = time.perf_counter() - start
        print(f"  game {game}, {len(answers)} answers: engine {took:.2f} s, CP-SAT {cp:.2f} s")


if __name__ == "__main__":
    main()
