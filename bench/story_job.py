"""Benchmark: what the story job costs for a whole game (the game told afterwards).

    .venv/bin/python bench/story_job.py --games 20 --seed 301

For each bot game (bench/bots.py: one bot per level, 12 rounds, seeds 1,000,000 +
seed on) the story of its whole public record is computed as the tell-stories job
computes it (services.story.record_story, in a process with empty caches for each
game), and timed. Printed per game: seconds, whether it was complete within
STORY_BUDGET, and how many gems became certain; then the median, 90th percentile
and max. Pure engine, no database.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

import bots  # bench/bots.py: bench/ is this script's own folder, so first on sys.path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from vpsleuth.services import story  # noqa: E402


def clear_caches() -> None:
    """Each game from cold, as the job's first run on a newly ended game is."""
    for name, module in list(sys.modules.items()):
        if name.startswith(("vpsleuth.engine", "vpsleuth.services.story")) and module:
            for value in vars(module).values():
                if hasattr(value, "cache_clear"):
                    value.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=301, help="first game: 1,000,000 + seed")
    args = parser.parse_args()
    first = 1_000_000 + args.seed
    print(f"games {first}..{first + args.games - 1}, budget {story.STORY_BUDGET:g} s")
    times, complete = [], 0
    for game in range(first, first + args.games):
        record = bots.played(game)[1]
        clear_caches()
        gc.collect()
        start = time.perf_counter()
        told = story.record_story(record)
        took = time.perf_counter() - start
        times.append(took)
        complete += told["complete"]
        certain = sum(g["certain_in_round"] is not None for g in told["gems"])
        print(f"  game {game}: {len(record.rounds)} rounds, "
              f"{len(record.answers())} answers, {took:.2f} s, complete "
              f"{told['complete']}, {certain} gems certain", flush=True)
    times.sort()
    print(f"\n{args.games} stories: median {statistics.median(times):.2f} s, 90th percentile "
          f"{times[int(0.9 * len(times))]:.2f} s, max {times[-1]:.2f} s; complete "
          f"{complete}/{args.games}")


if __name__ == "__main__":
    main()
