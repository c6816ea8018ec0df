"""Benchmark: the deduction engine against CP-SAT, per round of recorded games.

    .venv/bin/python bench/deduction.py                    # 2 random records + 1 demo game
    .venv/bin/python bench/deduction.py --random 4 --demo 2 --seed 5

Records: 12 rounds x 20 random legal questions answered by a random deal,
and demo games (4 players asking as ``vpsleuth demo`` does, 12 rounds; no
database: the same random turns, their questions answered by the deal).
For the state after every round: possible places by the engine, and by
CP-SAT deciding each of the 288 cells (one solve per cell, one worker), the
ratio; whether both agree; the time of counts and chances (``analyse``),
whether they were exact, the count and its stated error. Where a state was
counted exactly, the estimator alone (no DP, no listing) is run too, and its
actual error printed beside its stated 95% half-width.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cpsat_oracle import cpsat_possible  # noqa: E402

from vpsleuth.engine import Answered, analyse, legal_questions, possible_places  # noqa: E402
from vpsleuth.orders import parse_turn  # noqa: E402
from vpsleuth.rules import deal  # noqa: E402
from vpsleuth.services.demo import random_turn  # noqa: E402


def random_record(seed: int) -> list[list[Answered]]:
    truth, rng, questions = deal(seed=seed), random.Random(seed), legal_questions()
    return [[Answered(q, q.answer(truth)) for q in (rng.choice(questions) for _ in range(20))]
            for _ in range(12)]


def demo_record(seed: int, players: int = 4) -> list[list[Answered]]:
    truth, rng = deal(seed=seed), random.Random(seed)
    rounds = []
    for number in range(1, 13):
        asked = []
        for i in range(players):
            skill = min(0.97, 0.25 + 0.08 * number + 0.03 * i)
            q = parse_turn(random_turn(rng, truth, skill)).change.question
            asked.append(Answered(q, q.answer(truth)))
        rounds.append(asked)
    return rounds


def timed(func, *args, **kwargs):
    # The garbage of the step before (CP-SAT's models, the analyses' listings) is
    # collected first, so a collection it triggers is not charged to the next tool.
    gc.collect()
    start = time.perf_counter()
    got = func(*args, **kwargs)
    return got, time.perf_counter() - start


def bench(name: str, rounds: list[list[Answered]], stats: dict) -> None:
    print(f"\n{name}")
    print(f"{'rnd':>3} {'answers':>7} {'cells':>5} {'engine s':>8} {'cp-sat s':>8} "
          f"{'ratio':>6} {'agree':>5} {'analyse s':>9} {'exact':>5} {'count':>10} "
          f"{'stated':>7} {'actual':>7}")
    answers: list[Answered] = []
    for number, asked in enumerate(rounds, start=1):
        answers += asked
        mine, t_mine = timed(possible_places, answers)
        oracle, t_cp = timed(cpsat_possible, answers)
        full, t_an = timed(analyse, answers)
        stated = actual = ""
        if full.exact and full.count > 1:
            rough = analyse(answers, budget=0, enumerate_limit=0)
            stated = f"{rough.relative_error:.3f}"
            actual = f"{abs(rough.count - full.count) / full.count:.3f}"
            stats["errors"].append((len(answers), full.count, rough.relative_error,
                                    abs(rough.count - full.count) / full.count))
        elif not full.exact:
            stated = f"{full.relative_error:.3f}"
        stats["places"].append(t_mine)
        stats["ratios"].append(t_cp / t_mine)
        stats["analyse"].append(t_an)
        stats["agree"] &= mine == oracle
        if not full.exact:
            stats["last_estimated"] = max(stats["last_estimated"], len(answers))
        count = f"{full.count}" if full.exact else f"~{full.count:.3g}"
        print(f"{number:>3} {len(answers):>7} {sum(len(p) for p in mine.values()):>5} "
              f"{t_mine:>8.3f} {t_cp:>8.3f} {t_cp / t_mine:>6.1f} {str(mine == oracle):>5} "
              f"{t_an:>9.3f} {str(full.exact):>5} {count:>10} {stated:>7} {actual:>7}",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=2, help="random 12x20 records")
    parser.add_argument("--demo", type=int, default=1, help="demo games (4 players)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    stats = {"places": [], "ratios": [], "analyse": [], "agree": True, "errors": [],
             "last_estimated": 0}
    for i in range(args.random):
        bench(f"random record, deal seed {args.seed + i} (12 rounds x 20 questions)",
              random_record(args.seed + i), stats)
    for i in range(args.demo):
        bench(f"demo game, deal seed {args.seed + 100 + i} (4 players)",
              demo_record(args.seed + 100 + i), stats)
    places, ratios, an = stats["places"], stats["ratios"], stats["analyse"]
    print(f"\npossible places: median {statistics.median(places):.3f} s, max {max(places):.3f} s;"
          f" {sum(t <= 0.1 for t in places)}/{len(places)} states within 100 ms")
    print(f"CP-SAT / engine: median {statistics.median(ratios):.1f}x, min {min(ratios):.1f}x; "
          f"{sum(r >= 10 for r in ratios)}/{len(ratios)} states at least 10x")
    print(f"engine and CP-SAT agree on every cell of every state: {stats['agree']}")
    print(f"counts and chances: median {statistics.median(an):.3f} s, max {max(an):.3f} s; "
          f"{sum(t <= 1 for t in an)}/{len(an)} states within 1 s")
    print(f"exact counting: every state with more than {stats['last_estimated']} answers "
          "was exact (fewer: estimated where the DP and the listing gave up)")
    for n, count, stated, actual in stats["errors"]:
        print(f"  estimator alone at {n} answers, exact count {count}: stated 95% half-width "
              f"{stated:.3f}, actual relative error {actual:.3f}")


if __name__ == "__main__":
    main()
