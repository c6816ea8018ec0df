"""Benchmark: turns sent to the JSON API under gunicorn; ours against a bare Flask endpoint.

    .venv/bin/python bench/http_submit.py                       # PostgreSQL, then SQLite
    .venv/bin/python bench/http_submit.py --db postgresql --duration 10

gunicorn with 2 sync workers serves vpsleuth.wsgi:app on 127.0.0.1, on a
database of its own. 50 clients, each a different player of a 200-player game
with an API token of their own, send PUT /api/v1/games/{id}/turn for a bounded
time; each cycles through four valid turns (text or structured JSON), so every
request stores a version, changes the standing turn and queues a confirmation.
Loads: flat out (wrk, one thread and one connection per client, each sending
its next turn as soon as the answer comes, after a short warm-up: throughput,
and latency at saturation); then paced (bench/loadgen.py: each client a
Poisson stream of turns, in all a half and a tenth of the flat-out throughput
on the first database, the same rates for every server: latency below
saturation). The baseline is bench/bare_app.py, a Flask endpoint that does
nothing, behind the same gunicorn under the same loads. Targets: p95 at most
50 ms; flat-out throughput at least a third of the bare endpoint's. Peak RSS
per worker is VmHWM from /proc. Needs wrk (Debian: apt-get install -y wrk).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

from dbs import bench_app, server_version, temporary_database
from live_game import live_game, players_of
from loadgen import Load, check_one, gunicorn, lua_script, paced, peak_rss_mib, workers_of, wrk
from replies import turn_text
from sqlalchemy import func, select
from timing import load, table

from vpsleuth.extensions import db
from vpsleuth.models import TurnVersion
from vpsleuth.rules import ATTRIBUTES, GEMS, LOCATIONS, PLACEHOLDERS, QuestionError, make_question
from vpsleuth.services.accounts import issue_api_token

P95_TARGET_MS = 50.0
SHARE_TARGET = 1 / 3


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default="postgresql,sqlite",
                        help="comma-separated, of postgresql and sqlite (default: both)")
    parser.add_argument("--clients", type=int, default=50, help="(default: 50)")
    parser.add_argument("--players", type=int, default=200,
                        help="players in the game; the first --clients of them send turns "
                             "(default: 200)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default: 2)")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads per gunicorn worker (default: 1, the sync worker; more "
                             "runs gunicorn's gthread worker)")
    parser.add_argument("--duration", type=int, default=20,
                        help="seconds of load per measurement (default: 20)")
    parser.add_argument("--paced", default="0.5,0.1",
                        help="also measure latency under paced loads: these shares of the "
                             "first database's flat-out throughput, offered to every server "
                             "(comma-separated; default: 0.5,0.1; empty: only flat out)")
    parser.add_argument("--paced-rate", default="",
                        help="the paced loads in turns a second, instead of --paced's shares "
                             "(comma-separated; to compare runs)")
    parser.add_argument("--warmup", type=int, default=3,
                        help="seconds of load before each measurement, not counted (default: 3)")
    args = parser.parse_args()
    args.db = [k.strip() for k in args.db.split(",") if k.strip()]
    args.paced = [float(x) for x in args.paced.split(",") if x.strip()]
    args.paced_rate = [float(x) for x in args.paced_rate.split(",") if x.strip()] or None
    if not args.db or set(args.db) - {"postgresql", "sqlite"}:
        parser.error("--db takes a comma-separated list of postgresql and sqlite")
    if not 1 <= args.clients <= args.players:
        parser.error("--clients must be from 1 to --players")
    if shutil.which("wrk") is None:
        parser.error("wrk is not installed (Debian: apt-get install -y wrk)")
    return args


def structured_turn(rng: random.Random) -> dict:
    """A turn as structured JSON fields: a question, tips, sometimes a drop."""
    gems = rng.sample(GEMS, rng.randint(2, 6))
    body: dict = {"tips": {g.code: rng.choice(LOCATIONS) for g in gems}}
    while "question" not in body:
        codes = [a.code for a in rng.sample(ATTRIBUTES, rng.choice((1, 2)))]
        placeholder = rng.choice(PLACEHOLDERS)
        try:
            make_question(placeholder, [a for a in ATTRIBUTES if a.code in codes])
        except QuestionError:  # two attributes of one category
            continue
        body["question"] = {"placeholder": placeholder, "attributes": codes}
    if rng.random() < 0.3:
        body["drop"] = [rng.choice([g.code for g in GEMS if g.code not in body["tips"]])]
    return body


def clients_for(game, count: int, seed: int = 3) -> list[tuple[str, list[str]]]:
    """(raw API token, four JSON bodies) for the first ``count`` players of the game."""
    rng = random.Random(seed)
    clients = []
    for player in players_of(game)[:count]:
        _, raw = issue_api_token(player=player, label="bench")
        bodies = [json.dumps({"text": turn_text(rng, player.language, first=False)}),
                  json.dumps(structured_turn(rng)),
                  json.dumps({"text": turn_text(rng, player.language, first=True)}),
                  json.dumps(structured_turn(rng))]
        clients.append((raw, bodies))
    return clients


def serve_and_load(label: str, app: str, env: dict[str, str], script: Path,
                   clients: list[tuple[str, list[str]]], path: str,
                   args: argparse.Namespace, rates: list[float] | None
                   ) -> tuple[dict[str, Load], list[float], list[float]]:
    """Start gunicorn, check one request, measure flat out (after a warm-up), then paced.

    Paced: ``rates`` turns a second in all, or if None the ``args.paced`` shares
    of the flat-out throughput just measured. Returns the figures by load, each
    worker's peak RSS after all, and the paced rates.
    """
    figures: dict[str, Load] = {}
    with gunicorn(app, args.workers, args.threads, env) as (master, port):
        check_one(port, path, clients[0][0], clients[0][1][0])
        if args.warmup:
            wrk(port, script, args.clients, args.warmup)
        figures["flat out"] = wrk(port, script, args.clients, args.duration)
        print(f"{label}, flat out: {figures['flat out'].requests} requests in "
              f"{figures['flat out'].seconds:.1f} s; {load()}", flush=True)
        rates = rates or [share * figures["flat out"].rate for share in args.paced]
        for rate in rates:
            pace = f"paced, {rate:.0f} turns/s offered"
            figures[pace] = paced(port, clients, path, rate, args.duration)
            print(f"{label}, {pace}: {figures[pace].requests} requests in "
                  f"{figures[pace].seconds:.1f} s; {load()}", flush=True)
        rss = [peak_rss_mib(pid) for pid in workers_of(master)]
    return figures, rss, rates


def _accepted_and_refused() -> tuple[int, int]:
    counts = dict(db.session.execute(select(TurnVersion.status, func.count(TurnVersion.id))
                                     .where(TurnVersion.channel == "api")
                                     .group_by(TurnVersion.status)).all())
    return counts.get("accepted", 0), counts.get("refused", 0)


def measure_ours(kind: str, folder: str, args: argparse.Namespace,
                 rates: list[float] | None) -> tuple:
    """Set up a game on a new database of ``kind``, serve it, load it, check what was stored.

    Returns the figures by load, each worker's peak RSS, (the wrk script, the
    clients, the URL path) for the bare endpoint, and the paced rates.
    """
    with temporary_database(kind) as url, bench_app(url, kind):
        start = time.perf_counter()
        game = live_game("Bench HTTP", args.players)
        path = f"/api/v1/games/{game.id}/turn"
        clients = clients_for(game, args.clients)
        print(f"[{kind}] {server_version(kind)}; set up a game of {args.players} players, "
              f"{args.clients} with API tokens, in {time.perf_counter() - start:.1f} s; "
              f"{load()}", flush=True)
        db.session.remove()  # the server has the database to itself while it is loaded
        script = Path(folder, f"turns-{kind}.lua")
        script.write_text(lua_script(clients, path))
        env = {"VPSLEUTH_SQLALCHEMY_DATABASE_URI": url, "VPSLEUTH_SECRET_KEY": "bench-only"}
        figures, rss, rates = serve_and_load(f"[{kind}] ours", "vpsleuth.wsgi:app", env,
                                             script, clients, path, args, rates)
        accepted, refused = _accepted_and_refused()
    answered = sum(f.requests - f.non_2xx for f in figures.values())
    if refused:
        raise SystemExit(f"[{kind}] {refused} turns were refused: the bench's turns are wrong")
    if accepted < answered:
        raise SystemExit(f"[{kind}] only {accepted} turns stored for {answered} answered with 2xx")
    print(f"[{kind}] {accepted} turns accepted and stored (warm-ups included), none refused",
          flush=True)
    return figures, rss, (script, clients, path), rates


def _row(db_kind: str, server: str, pace: str, f: Load, rss: list[float]) -> tuple[str, ...]:
    return (db_kind, server, pace, f"{f.requests}", f"{f.rate:,.0f}", f"{f.p50:.1f}",
            f"{f.p95:.1f}", f"{f.p99:.1f}", f"{f.max:.0f}", f"{f.non_2xx}", f"{f.socket_errors}",
            " / ".join(f"{r:.0f}" for r in rss))


def main() -> None:
    args = arguments()
    kind = "sync workers" if args.threads == 1 else f"gthread workers of {args.threads} threads"
    print(f"{os.cpu_count()} CPUs; gunicorn: {args.workers} {kind}; {args.clients} clients "
          f"(wrk flat out, asyncio paced); {args.warmup} s warm-up, then {args.duration} s "
          "measured per load", flush=True)
    ours = {}
    with tempfile.TemporaryDirectory(prefix="vpsleuth-bench-http-") as folder:
        rates = args.paced_rate  # None: from the first database's flat-out throughput
        for kind in args.db:
            ours[kind] = measure_ours(kind, folder, args, rates)
            rates = ours[kind][3]
        bare, bare_rss, _ = serve_and_load("bare endpoint", "bare_app:app", {},
                                           *ours[args.db[-1]][2], args, rates)
    rows = [("db", "server", "load", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms",
             "non-2xx", "socket errors", "peak RSS per worker, MiB")]
    rows += [_row("-", "bare Flask endpoint", pace, f, bare_rss) for pace, f in bare.items()]
    verdicts = []
    for kind, (figures, rss, _, _) in ours.items():
        rows += [_row(kind, "ours: PUT .../turn", pace, f, rss) for pace, f in figures.items()]
        share = figures["flat out"].rate / bare["flat out"].rate
        verdicts.append(f"[{kind}] flat out: throughput {share:.1%} of the bare endpoint's "
                        f"(target >= {SHARE_TARGET:.0%}): "
                        f"{'met' if share >= SHARE_TARGET else 'NOT met'}")
        verdicts += [f"[{kind}] {pace}: p95 {f.p95:.1f} ms (target <= {P95_TARGET_MS:.0f} ms): "
                     f"{'met' if f.p95 <= P95_TARGET_MS else 'NOT met'}"
                     for pace, f in figures.items()]
    print()
    print(f"turn submission over HTTP: {args.clients} clients, {args.duration} s per load")
    print(table(rows))
    print("\n".join(verdicts))


if __name__ == "__main__":
    main()
