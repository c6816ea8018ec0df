"""Benchmark: the deduction engine against CP-SAT, per round of recorded games.

    .venv/bin/python bench/deduction.py                    # 2 random records + 1 demo game
    .venv/bin/python bench/deduction.py --random 4 --demo 2 --seed 5
    .venv/bin/python bench/deduction.py --random 0 --demo 0 --fuzz 12 --seed 101
    .venv/bin/python bench/deduction.py --patience none    # the engine alone, no hand-over

Records: 12 rounds x 20 random legal questions answered by a random deal,
and demo games (4 players asking as ``vpsleuth demo`` does, 12 rounds; no
database: the same random turns, their questions answered by the deal).
For the state after every round: possible places by the engine, and by
CP-SAT deciding each of the 288 cells (one solve per cell, one worker), the
ratio; whether both agree; the time of counts and chances (``analyse``),
whether they were exact, the count and its stated error. Where a state was
counted exactly, the estimator alone (no DP, no listing) is run too, and its
actual error printed beside its stated 95% half-width.

--fuzz N: records off any game's path, as the story's proofs ask them: of
random records seed .. seed+N-1, for n = 1..7 the first n rounds and six
random subsets of round n+1 (42 records each). Summed up per record set (the
same lines bench/deduction_bots.py prints): median, 90th percentile and max
of possible places, the slowest ten beside CP-SAT, how many states were
slower than CP-SAT and how many the engine's own search answered (the rest
it handed to CP-SAT after --patience seconds, analysis.PATIENCE by default).
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
from vpsleuth.engine.analysis import PATIENCE  # noqa: E402
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


def fuzz_records(seed: int) -> list[list[Answered]]:
    """42 records off the path of random record ``seed``: for n = 1..7, the first n
    rounds and six random subsets of round n+1 (what the story's proofs ask)."""
    rounds, rng = random_record(seed), random.Random(seed)
    out = []
    for n in range(1, 8):
        earlier = [a for round_ in rounds[:n] for a in round_]
        for _ in range(6):
            out.append(earlier + rng.sample(rounds[n], rng.randrange(1, len(rounds[n]))))
    return out


def summarise(rows: list[dict]) -> None:
    """The figures the issue asks for, per record set. Each row: ``name``, ``engine``
    and ``cpsat`` seconds (engine None: cut off), ``by`` (who decided the places),
    ``agree``, and ``analyse`` seconds, ``exact``, ``stated`` error of counts."""
    times = sorted(r["engine"] for r in rows)
    n = len(times)
    print(f"possible places, {n} states: median {statistics.median(times):.3f} s, "
          f"90th percentile {times[int(0.9 * n)]:.3f} s, max {times[-1]:.3f} s; "
          f"{sum(t <= 2 for t in times)}/{n} within 2 s")
    ratios = [r["cpsat"] / r["engine"] for r in rows if r["cpsat"] == r["cpsat"]]  # not NaN
    if ratios:
        fastest = min(r["cpsat"] for r in rows if r["cpsat"] == r["cpsat"])
        print(f"CP-SAT / engine: median {statistics.median(ratios):.1f}x, "
              f"min {min(ratios):.2f}x; states slower than CP-SAT: "
              f"{sum(r['engine'] > r['cpsat'] for r in rows)} of {len(ratios)} measured; "
              f"CP-SAT's fastest state {fastest:.3f} s")
        uniform = [r["cpsat"] / r["engine"] for r in rows
                   if r.get("uniform") and r["cpsat"] == r["cpsat"]]
        if uniform and len(uniform) < len(ratios):
            # The measured states lean to the hard ones (all those over --cpsat-over);
            # every --every-th state was measured whatever it took: an unbiased sample.
            print(f"  median over every --every-th state alone (an unbiased sample of "
                  f"{len(uniform)}): {statistics.median(uniform):.1f}x")
        unmeasured = [r["engine"] for r in rows if r["cpsat"] != r["cpsat"]]
        if unmeasured:
            print(f"  not measured beside CP-SAT: {len(unmeasured)} states, the engine's "
                  f"slowest of them {max(unmeasured):.3f} s")
    by = {}
    for r in rows:
        by[r["by"]] = by.get(r["by"], 0) + 1
    print("decided by: " + ", ".join(f"{k} {v}" for k, v in sorted(by.items())))
    print(f"engine and CP-SAT agree on every cell of every state measured: "
          f"{all(r['agree'] for r in rows)}")
    print("slowest ten:")
    for r in sorted(rows, key=lambda r: -r["engine"])[:10]:
        print(f"  {r['name']}: engine {r['engine']:.3f} s ({r['by']}), "
              f"CP-SAT {r['cpsat']:.3f} s, ratio {r['cpsat'] / r['engine']:.1f}x")
    an = sorted(r["analyse"] for r in rows if r.get("analyse") is not None)
    if an:
        print(f"counts and chances: median {statistics.median(an):.3f} s, "
              f"90th percentile {an[int(0.9 * len(an))]:.3f} s, max {an[-1]:.3f} s; "
              f"{sum(t <= 2 for t in an)}/{len(an)} within 2 s; "
              f"exact {sum(r['exact'] for r in rows if r.get('analyse') is not None)}")
        stated = sorted(r["stated"] for r in rows if r.get("stated") is not None)
        if stated:
            unknown = sum(s == float("inf") for s in stated)
            print(f"  estimated: {len(stated)}, stated 95% half-width median "
                  f"{statistics.median(stated):.2f} (relative), count unknown (no probe "
                  f"reached a distribution) {unknown}")


def timed(func, *args, **kwargs):
    # The garbage of the step before (CP-SAT's models, the analyses' listings) is
    # collected first, so a collection it triggers is not charged to the next tool.
    gc.collect()
    start = time.perf_counter()
    got = func(*args, **kwargs)
    return got, time.perf_counter() - start


def bench(name: str, rounds: list[list[Answered]], stats: dict, patience: float | None,
          cumulative: bool = True, cpsat_over: float = 0.0, every: int = 1) -> None:
    """Each state of ``rounds`` (the record after each round; with ``cumulative``
    False, each entry of ``rounds`` is a whole record of its own). CP-SAT decides
    the states the engine took more than ``cpsat_over`` seconds on, and every
    ``every``-th of the others; the estimator alone is checked on every
    ``every``-th state counted exactly."""
    print(f"\n{name}")
    print(f"{'rnd':>3} {'answers':>7} {'cells':>5} {'engine s':>8} {'by':>6} {'cp-sat s':>8} "
          f"{'ratio':>6} {'agree':>5} {'analyse s':>9} {'exact':>5} {'count':>10} "
          f"{'stated':>7} {'actual':>7}")
    answers: list[Answered] = []
    for number, asked in enumerate(rounds, start=1):
        answers = answers + asked if cumulative else list(asked)
        mine, t_mine = timed(possible_places, answers, patience=patience)
        stats["seen"] = stats.get("seen", 0) + 1
        uniform = stats["seen"] % every == 0  # measured whatever it took
        if t_mine > cpsat_over or uniform:
            oracle, t_cp = timed(cpsat_possible, answers)
        else:
            oracle, t_cp = mine, float("nan")
        full, t_an = timed(analyse, answers, patience=patience)
        stated = actual = ""
        if full.exact and full.count > 1 and uniform:
            rough = analyse(answers, budget=0, enumerate_limit=0, patience=patience)
            stated = f"{rough.relative_error:.3f}"
            actual = f"{abs(rough.count - full.count) / full.count:.3f}"
            stats["errors"].append((len(answers), full.count, rough.relative_error,
                                    abs(rough.count - full.count) / full.count))
        elif not full.exact:
            stated = f"{full.relative_error:.3f}"
        stats["rows"].append({"name": f"{name.split(',')[0]} {number} ({len(answers)} answers)",
                              "engine": t_mine, "cpsat": t_cp, "by": mine.by,
                              "agree": mine == oracle, "analyse": t_an, "exact": full.exact,
                              "stated": None if full.exact else full.relative_error,
                              "uniform": uniform})
        if not full.exact:
            stats["last_estimated"] = max(stats["last_estimated"], len(answers))
        count = f"{full.count}" if full.exact else f"~{full.count:.3g}"
        print(f"{number:>3} {len(answers):>7} {sum(len(p) for p in mine.values()):>5} "
              f"{t_mine:>8.3f} {mine.by:>6} {t_cp:>8.3f} {t_cp / t_mine:>6.1f} "
              f"{str(mine == oracle) if t_cp == t_cp else '-':>5} {t_an:>9.3f} "
              f"{str(full.exact):>5} {count:>10} {stated:>7} {actual:>7}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=2, help="random 12x20 records")
    parser.add_argument("--demo", type=int, default=1, help="demo games (4 players)")
    parser.add_argument("--fuzz", type=int, default=0,
                        help="random records whose partial records (42 each) are fuzzed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpsat-over", type=float, default=0.0,
                        help="CP-SAT only where the engine took longer (and on every "
                             "--every-th other state); 0: on every state")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--patience", default=str(PATIENCE),
                        help="seconds before CP-SAT takes the open cells; none: never")
    args = parser.parse_args()
    patience = None if args.patience == "none" else float(args.patience)
    print(f"seeds: random {args.seed}..{args.seed + args.random - 1}, demo "
          f"{args.seed + 100}..{args.seed + 99 + args.demo}, fuzz {args.seed}.."
          f"{args.seed + args.fuzz - 1}; patience {patience}")
    stats = {"rows": [], "errors": [], "last_estimated": 0}
    for i in range(args.random):
        bench(f"random record, deal seed {args.seed + i} (12 rounds x 20 questions)",
              random_record(args.seed + i), stats, patience)
    for i in range(args.demo):
        bench(f"demo game, deal seed {args.seed + 100 + i} (4 players)",
              demo_record(args.seed + 100 + i), stats, patience)
    games = stats["rows"]
    stats["rows"] = []
    for i in range(args.fuzz):
        bench(f"fuzz, random record seed {args.seed + i} (partial records)",
              fuzz_records(args.seed + i), stats, patience, cumulative=False,
              cpsat_over=args.cpsat_over, every=args.every)
    for label, rows in (("random records and demo games", games), ("fuzz", stats["rows"])):
        if rows:
            print(f"\n{label}:")
            summarise(rows)
    print(f"exact counting: every state with more than {stats['last_estimated']} answers "
          "was exact (fewer: estimated where the DP and the listing gave up)")
    for n, count, stated, actual in stats["errors"]:
        print(f"  estimator alone at {n} answers, exact count {count}: stated 95% half-width "
              f"{stated:.3f}, actual relative error {actual:.3f}"
              + ("" if actual <= stated else "  OUTSIDE"))
    if stats["errors"]:
        inside = sum(actual <= stated for _, _, stated, actual in stats["errors"])
        print(f"  actual error within the stated 95% half-width: {inside}/{len(stats['errors'])}")


if __name__ == "__main__":
    main()
