"""Benchmark: the hard bot's question against the deduction engine's best, round by round.

    .venv/bin/python bench/bot_questions.py                  # 10 games, about 5-10 minutes
    .venv/bin/python bench/bot_questions.py --games 3 --seed 2 --engine-timeout 10

The games are bench/bots.py's (its ``play``: one bot per level, the same
seeds for the same --seed, default house rules). Before each of the hard
bot's turns, the public record it reads is also given to the engine
(vpsleuth.engine): ``analyse`` and ``best_questions`` (all 301 legal
questions), then ``information`` of the bot's question and of the engine's
best. Where the analysis is exact these are exact bits; elsewhere they are
the engine's own estimates, from 100 weighted probes, whose effective number
(Kish: (sum w)^2 / sum w^2) is printed, as few probes carry most of the weight.

So that the estimated rounds can be judged by something neither side chose
its question with, a reference sample of --reference deals (the bot's own
sampler, other seed, ten times the bot's 200 deals) scores the bot's
question, the engine's and the best legal question.

Times: the sampler's choice is bots.brain.best_questions with its cache
cleared (draw 200 deals, score every question); the engine's is analyse +
best_questions, run in a child process and cut off after --engine-timeout
seconds (such a round is counted at the cut-off, so the engine's mean and
max are lower bounds, and it has no engine figures).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import NamedTuple

import bots  # bench/bots.py: bench/ is this script's own folder, so first on sys.path

from vpsleuth.bots import brain
from vpsleuth.bots.sampler import NoDeal, sample
from vpsleuth.engine import Answered, PublicRecord, analyse, best_questions, information
from vpsleuth.orders import parse_turn
from vpsleuth.rules import Question

NEAR = 0.95  # "within 95% of the best"


class EngineView(NamedTuple):
    exact: bool
    probes: float | None  # effective number of the estimate's probes (None when exact)
    chosen: float  # bits of the bot's question
    best: float  # bits of the engine's best question, by the same measure
    question: Question  # the engine's best question


class Reference(NamedTuple):
    chosen: float  # bits of the bot's question
    engine: float | None  # bits of the engine's best question (None: engine cut off)
    best: float  # bits of the best question by the reference


@dataclass
class Measured:
    """One hard turn: the bot's choice, the engine's view of it, the reference's."""

    round: int
    answers: int
    fallback: bool  # the sampler found no deal: the bot played as easy
    t_sampler: float
    t_engine: float
    engine: EngineView | None = None  # None: cut off
    reference: Reference | None = None


def engine_view(answers: tuple[Answered, ...], chosen: Question) -> tuple[float, EngineView]:
    """In the child: the engine's analysis, its best question and the bot's question's bits."""
    start = time.perf_counter()
    analysis = analyse(answers)
    [(best, _)] = best_questions(answers, 1, analysis=analysis)
    seconds = time.perf_counter() - start
    weights = analysis.estimate.weights if analysis.estimate and not analysis.exact else ()
    probes = sum(weights) ** 2 / sum(w * w for w in weights) if any(weights) else None
    # both by information(): exact where the count is (best_questions itself weighs the
    # questions on 2,000 drawn distributions when there are too many to list)
    return seconds, EngineView(analysis.exact, probes, information(chosen, analysis),
                               information(best, analysis), best)


class Engine:
    """A one-worker pool whose worker is ended (and replaced) when it overruns."""

    def __init__(self, timeout: float):
        self.timeout = timeout
        self.pool = multiprocessing.get_context("fork").Pool(1)

    def view(self, answers: tuple[Answered, ...],
             chosen: Question) -> tuple[float, EngineView | None]:
        job = self.pool.apply_async(engine_view, (answers, chosen))
        try:
            return job.get(self.timeout)
        except multiprocessing.TimeoutError:
            self.pool.terminate()
            self.pool.join()
            self.pool = multiprocessing.get_context("fork").Pool(1)
            return self.timeout, None

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()


def measure(record: PublicRecord, text: str, engine: Engine, reference: int,
            seed: int) -> Measured:
    """The hard bot's turn ``text`` for ``record``, set against the engine and the reference."""
    answers = record.answers()
    chosen = parse_turn(text).change.question
    brain._sample.cache_clear()  # time the draw too, not a sample medium already drew
    start = time.perf_counter()
    try:
        fallback = brain.best_questions(answers, 1)[0] != chosen
    except NoDeal:
        fallback = True
    t_sampler = time.perf_counter() - start
    t_engine, view = engine.view(answers, chosen)
    got = Measured(len(record.rounds) + 1, len(answers), fallback, t_sampler, t_engine, view)
    if reference:
        try:
            deals = sample(answers, size=reference, seed=seed)
        except NoDeal:
            return got
        bits = [deals.information(q) for q in brain._QUESTIONS]
        got.reference = Reference(deals.information(chosen),
                                  deals.information(view.question) if view else None, max(bits))
    return got


def ratio(got: float, best: float) -> float:
    return got / best if best > 1e-12 else 1.0


def mean(values: list, spec: str = ".2f") -> str:
    return format(statistics.fmean(values), spec) if values else "-"


def ratios(pairs: list[tuple[float, float]], spec: str = ".2f") -> str:
    """The mean ratio got/best over (got, best) pairs."""
    return mean([ratio(got, best) for got, best in pairs], spec)


def near(pairs: list[tuple[float, float]]) -> str:
    """The share of (got, best) pairs where got is within 95% of best."""
    return mean([got >= NEAR * best for got, best in pairs], ".0%")


def report_rounds(rows: list[Measured]) -> None:
    by_round: dict[int, list[Measured]] = defaultdict(list)
    for m in rows:
        by_round[m.round].append(m)
    print("eng = the engine's bits (exact where 'exact', else its estimate), ref = the "
          "reference sample's;\nbot/best and eng/best: the question's bits over the best "
          "question's by the same measure\n")
    print(f"{'rnd':>3} {'ans':>3} {'n':>3} {'exact':>5} {'eff.probes':>10} {'eng bot/best':>12} "
          f"{'>=95%':>5} {'ref bot/best':>12} {'ref eng/best':>12} {'sampler s':>12} "
          f"{'engine s':>13} {'cut':>3}")
    for number, ms in sorted(by_round.items()):
        seen = [m.engine for m in ms if m.engine]
        probes = [e.probes for e in seen if e.probes is not None]
        ref = [m.reference for m in ms if m.reference]
        engine_pairs = [(e.chosen, e.best) for e in seen]
        print(f"{number:>3} {ms[0].answers:>3} {len(ms):>3} {sum(e.exact for e in seen):>5} "
              f"{statistics.median(probes) if probes else 0:>10.1f} "
              f"{ratios(engine_pairs):>12} {near(engine_pairs):>5} "
              f"{ratios([(r.chosen, r.best) for r in ref]):>12} "
              f"{ratios([(r.engine, r.best) for r in ref if r.engine is not None]):>12} "
              f"{mean([m.t_sampler for m in ms], '.3f'):>6}/{max(m.t_sampler for m in ms):<5.2f} "
              f"{mean([m.t_engine for m in ms]):>6}/{max(m.t_engine for m in ms):<6.1f} "
              f"{sum(m.engine is None for m in ms):>3}")


def report(rows: list[Measured], timeout: float) -> None:
    report_rounds(rows)
    seen = [m.engine for m in rows if m.engine]
    exact = [e for e in seen if e.exact]
    print(f"\n{len(rows)} hard turns; the bot asked the sampler's best question in "
          f"{sum(not m.fallback for m in rows)} (the others: no deal found, it played as easy)")
    print(f"engine finished within {timeout:.0f} s: {len(seen)}/{len(rows)}; its analysis was "
          f"exact in {len(exact)}/{len(seen)}")
    for label, part in (("all finished", seen), ("exact only", exact)):
        pairs = [(e.chosen, e.best) for e in part]
        if pairs:
            print(f"  {label:13} bot/best by the engine {ratios(pairs, '.3f')}, "
                  f"within 95% of the best: {near(pairs)}")
    ref = [m.reference for m in rows if m.reference]
    if ref:
        pairs = [(r.chosen, r.best) for r in ref]
        print(f"reference sample: bot/best {ratios(pairs, '.3f')}, within 95%: {near(pairs)}")
    both = [m.reference for m in rows
            if m.reference and m.engine and not m.engine.exact]
    if both:
        print(f"  where the engine estimated ({len(both)}): bot/best "
              f"{ratios([(r.chosen, r.best) for r in both], '.3f')}, engine's question/best "
              f"{ratios([(r.engine, r.best) for r in both], '.3f')}; the bot's question at "
              f"least as good in {mean([r.chosen >= r.engine - 1e-9 for r in both], '.0%')}")
    ts, te = [m.t_sampler for m in rows], [m.t_engine for m in rows]
    print(f"sampler choice: mean {mean(ts, '.3f')} s, max {max(ts):.3f} s")
    print(f"engine choice:  mean {mean(te, '.3f')} s, max {max(te):.3f} s"
          + (f" (at least: {len(rows) - len(seen)} cut off at {timeout:.0f} s)"
             if len(seen) < len(rows) else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine-timeout", type=float, default=30.0,
                        help="seconds before the engine's choice is cut off")
    parser.add_argument("--reference", type=int, default=2000,
                        help="deals in the reference sample (0: none)")
    args = parser.parse_args()
    engine, rows = Engine(args.engine_timeout), []
    play_decide = bots.decide

    # bots.play has no hook per turn: its decide is wrapped, which leaves the games unchanged
    # (measuring uses neither the game's random source nor anything a bot keeps)
    def decide(record: PublicRecord, me, level: str, rng) -> str:
        text = play_decide(record, me, level, rng)
        if level == "hard":
            seed = 7_000_000 + len(rows)  # not the bot's: its seed is the record's CRC
            rows.append(measure(record, text, engine, args.reference, seed))
        return text

    bots.decide = decide
    started = time.perf_counter()
    try:
        for i in range(args.games):
            bots.play(args.seed * 1_000_003 + i)
    finally:
        engine.close()
    seconds = time.perf_counter() - started
    print(f"{args.games} games of bench/bots.py (hard, medium, easy, random; seeds "
          f"{args.seed * 1_000_003}..{args.seed * 1_000_003 + args.games - 1}), {seconds:.0f} s; "
          f"reference sample {args.reference} deals\n")
    report(rows, args.engine_timeout)


if __name__ == "__main__":
    main()
