"""Benchmark: computer players against each other, pure engine and rules, no database.

    .venv/bin/python bench/bots.py                 # 200 games, hard v medium v easy v random
    .venv/bin/python bench/bots.py --games 20 --seed 3

Each game is a tournament of one bot per level in the same game (same deal,
same public record, default house rules, 12 rounds): every round each bot's
turn is decided by vpsleuth.bots.decide from the public record alone, parsed
by the turn language, and scored by vpsleuth.rules.resolve. Printed: the mean
final points per level with their spread (sd, 95% CI), and for each
neighbouring pair the mean of the per-game differences, its 95% CI (t) and a
bootstrap CI, the share of games the stronger level won, and whether the
margin is statistically clear (both CIs above zero).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from vpsleuth.bots import Me, decide
from vpsleuth.bots.brain import BENCH_LEVELS
from vpsleuth.engine import Answered, PublicRecord
from vpsleuth.orders import parse_turn
from vpsleuth.rules import Ruleset, Turn, deal, resolve

DEFAULT_RULES = Ruleset()


def play(seed: int, rules: Ruleset = DEFAULT_RULES) -> dict[str, int]:
    """One game of one bot per level; their final points."""
    return played(seed, rules)[0]


def played(seed: int, rules: Ruleset = DEFAULT_RULES) -> tuple[dict[str, int], PublicRecord]:
    """One game of one bot per level: their final points, and the game's public record."""
    distribution = deal(seed)
    rng = random.Random(seed)
    rounds: list[tuple[Answered, ...]] = []
    last: dict[str, dict] = {level: {} for level in BENCH_LEVELS}
    totals = dict.fromkeys(BENCH_LEVELS, 0)
    for number in range(1, rules.rounds + 1):
        record = PublicRecord(rules, tuple(rounds))
        turns = {}
        for level in BENCH_LEVELS:
            parsed = parse_turn(decide(record, Me(level, last[level]), level, rng))
            assert parsed.ok, parsed.errors  # a bot's turn always parses
            tips: dict = {}
            parsed.change.apply_tips(tips, lambda lv=level: last[lv], lambda loc: loc)
            question = parsed.change.question if parsed.change.changes_question else None
            turns[level] = Turn(question, tips)
            last[level] = tips
        outcome = resolve(number, turns, list(BENCH_LEVELS), distribution, rules)
        for level, result in outcome.results.items():
            totals[level] += result.points
        rounds.append(tuple(Answered(t.question, t.question.answer(distribution), level)
                            for level, t in turns.items() if t.question is not None))
        if outcome.game_over:
            break
    return totals, PublicRecord(rules, tuple(rounds))


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean, sd and the half-width of the 95% CI (normal approximation; n >= 20)."""
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return mean, sd, 1.96 * sd / math.sqrt(len(values))


def bootstrap(values: list[float], rng: random.Random, draws: int = 4000) -> tuple[float, float]:
    """The 2.5% and 97.5% points of the bootstrapped mean."""
    n = len(values)
    means = sorted(statistics.fmean(rng.choices(values, k=n)) for _ in range(draws))
    return means[int(0.025 * draws)], means[int(0.975 * draws) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    games = [play(args.seed * 1_000_003 + i) for i in range(args.games)]
    seconds = time.perf_counter() - started
    print(f"{args.games} games of 4 bots (one per level), default house rules, "
          f"{seconds:.0f} s ({seconds / args.games:.2f} s a game)\n")
    print(f"{'level':8} {'mean':>8} {'sd':>7} {'95% CI':>18}")
    for level in BENCH_LEVELS:
        mean, sd, half = mean_ci([g[level] for g in games])
        print(f"{level:8} {mean:8.1f} {sd:7.1f}   [{mean - half:7.1f}, {mean + half:7.1f}]")
    print("\npaired per game   mean diff   95% CI (t)          bootstrap 95%       "
          "won   clear")
    rng = random.Random(args.seed)
    clear_all = True
    order = ("hard", "medium", "easy", "random")
    for stronger, weaker in zip(order, order[1:], strict=False):
        diffs = [g[stronger] - g[weaker] for g in games]
        mean, _, half = mean_ci(diffs)
        low, high = bootstrap(diffs, rng)
        won = sum(d > 0 for d in diffs) / len(diffs)
        clear = mean - half > 0 and low > 0
        clear_all &= clear
        print(f"{stronger:>6} - {weaker:<7} {mean:9.1f}   [{mean - half:6.1f}, {mean + half:6.1f}]"
              f"     [{low:6.1f}, {high:6.1f}]    {won:4.0%}   {'yes' if clear else 'NO'}")
    print("\nhard > medium > easy > random: " + ("statistically clear (every 95% CI of the "
          "paired differences above 0)" if clear_all else "NOT clear"))


if __name__ == "__main__":
    main()
