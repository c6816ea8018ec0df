"""Benchmark: a reply by IMAP to its confirmation queued, through Dovecot and the IMAP watcher.

    .venv/bin/python bench/mail_turnaround.py                     # both databases, 100 replies
    .venv/bin/python bench/mail_turnaround.py --db sqlite --replies 20 --rate 5

For each database: a running game (bench/live_game.py) whose players each
reply once to the round mail they really got, with its real reply key, a real
turn, quoted the way Gmail, Thunderbird, Outlook or Apple Mail quote it
(bench/replies.py); a private Dovecot (tests/dovecot_server.py); and
`vpsleuth mail idle` in a process of its own on the same database, as in
production. Each reply is APPENDed to the watched folder; its turnaround is
the time from just before the APPEND to its confirmation queued in the outbox
(the row's created_at, written by the watcher process; one clock).

* paced: the replies one at a time, at random (exponential) intervals of mean
  1/--rate seconds (default 2 a second; a 1,000-player game's busiest hour
  brings about 0.3 a second);
* burst: all of them back to back: the last waits for every one before it;
* baseline: a bare IMAPClient waiting in IDLE on a folder of its own, the same
  paced APPENDs: the time until the server says EXISTS, which no client can
  beat (Dovecot's own notification delay).

Target: p95 at most 5 s, paced. Before the watcher, a reply waited for the
poll-imap job, every second scheduler tick (60 s apart: 30 s on average).
Prints figures; asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from dbs import bench_app, server_version, temporary_database
from imapclient import IMAPClient
from inbound_mail import Reply, build_messages, check
from live_game import live_game
from sqlalchemy import select
from timing import load, table

from vpsleuth.extensions import db
from vpsleuth.mail.inbound.lease import current_holder
from vpsleuth.models import InboundMessage, OutboxMessage

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from dovecot_server import PrivateDovecot  # noqa: E402 (the tests' own helper)

TARGET = 5.0  # seconds, p95 of the paced run
WARMUP = 5


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default="sqlite,postgresql",
                        help="comma-separated: sqlite, postgresql (default: both)")
    parser.add_argument("--replies", type=int, default=100,
                        help="replies in each run, one per player (default: 100)")
    parser.add_argument("--rate", type=float, default=2.0,
                        help="paced run: replies a second on average (default: 2)")
    args = parser.parse_args()
    args.db = [k.strip() for k in args.db.split(",") if k.strip()]
    if not args.db or set(args.db) - {"sqlite", "postgresql"}:
        parser.error("--db takes sqlite, postgresql or both, comma-separated")
    if args.replies < 2 or args.rate <= 0:
        parser.error("--replies must be at least 2 and --rate above 0")
    return args


def connect(server: PrivateDovecot) -> IMAPClient:
    client = IMAPClient(server.host, port=server.port, ssl=False, timeout=60)
    client.login(server.user, server.password)
    return client


def append_paced(client: IMAPClient, folder: str, raws: list[bytes], rate: float | None,
                 seed: int = 3) -> list[float]:
    """APPEND each message (rate None: back to back); the wall-clock time before each."""
    rng, times = random.Random(seed), []
    for raw in raws:
        times.append(time.time())
        client.append(folder, raw)
        if rate:
            time.sleep(rng.expovariate(rate))
    return times


def percentiles(values: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[49], cuts[94]


def row(kind: str, label: str, values: list[float]) -> tuple[str, ...]:
    p50, p95 = percentiles(values)
    return (kind, label, str(len(values)), f"{p50:.3f} s", f"{p95:.3f} s",
            f"{max(values):.3f} s", f"{statistics.mean(values):.3f} s")


def baseline(server: PrivateDovecot, count: int, rate: float) -> list[float]:
    """APPEND to EXISTS, seen by a bare client in IDLE, for ``count`` paced messages."""
    folder = f"baseline-{os.getpid()}"
    sender, watcher = connect(server), connect(server)
    sender.create_folder(folder)
    watcher.select_folder(folder)
    seen: dict[int, float] = {}
    done = threading.Event()

    def watch() -> None:
        watcher.idle()
        while max(seen, default=0) < count and not done.is_set():
            for response in watcher.idle_check(timeout=1):
                if len(response) > 1 and response[1] == b"EXISTS":
                    seen.setdefault(response[0], time.time())
        watcher.idle_done()

    thread = threading.Thread(target=watch)
    thread.start()
    time.sleep(0.5)  # the watcher is in IDLE
    raw = b"From: a@example.org\r\nSubject: baseline\r\n\r\nTIP A RD1\r\n"
    appended = append_paced(sender, folder, [raw] * count, rate)
    thread.join(timeout=60)
    done.set()
    thread.join()
    for client in (sender, watcher):
        client.logout()
    # the n-th message is there once the server has said "n EXISTS" (or more)
    return [min(t for n, t in seen.items() if n >= i + 1) - appended[i]
            for i in range(count)]


def watcher_process(kind: str, url: str, server: PrivateDovecot, folder: str,
                    log: Path) -> subprocess.Popen:
    """`vpsleuth mail idle` on the benchmark's database and folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VPSLEUTH_")}
    env.update({"VPSLEUTH_SQLALCHEMY_DATABASE_URI": url, "VPSLEUTH_SECRET_KEY": "bench-only",
                "VPSLEUTH_IMAP_HOST": server.host, "VPSLEUTH_IMAP_PORT": str(server.port),
                "VPSLEUTH_IMAP_SSL": "false", "VPSLEUTH_IMAP_USER": server.user,
                "VPSLEUTH_IMAP_PASSWORD": server.password, "VPSLEUTH_IMAP_FOLDER": folder,
                "VPSLEUTH_IMAP_DONE_FOLDER": f"{folder}-done"})
    script = Path(sys.executable).with_name("vpsleuth")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "vpsleuth.cli"]
    with log.open("w") as out:
        return subprocess.Popen(command + ["mail", "idle"], env=env, stdout=out,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def wait_for(condition, what: str, seconds: float) -> None:
    limit = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > limit:
            raise SystemExit(f"gave up waiting {seconds:g} s for {what}")
        time.sleep(0.05)


def confirmed(player_ids: list[int], after: int) -> dict[int, datetime]:
    """When each player's confirmation was queued (player id -> created_at), after outbox
    row ``after`` (the game's set-up confirmed turns sent on the web too)."""
    db.session.expire_all()
    rows = db.session.execute(select(OutboxMessage.player_id, OutboxMessage.created_at).where(
        OutboxMessage.kind == "confirmation", OutboxMessage.player_id.in_(player_ids),
        OutboxMessage.id > after))
    return {player_id: created for player_id, created in rows}


def run(client: IMAPClient, folder: str, replies: list[Reply], rate: float | None,
        after: int) -> list[float]:
    """APPEND the replies, wait for every confirmation; the turnarounds in seconds."""
    ids = [r.player_id for r in replies]
    appended = append_paced(client, folder, [r.raw for r in replies], rate)
    wait_for(lambda: len(confirmed(ids, after)) == len(ids), "every confirmation", 300)
    queued = confirmed(ids, after)
    return [queued[r.player_id].timestamp() - t for r, t in zip(replies, appended,
                                                                 strict=True)]


def bench(kind: str, url: str, server: PrivateDovecot, args: argparse.Namespace
          ) -> tuple[list[float], list[float]]:
    """The turnarounds of the paced run and of the burst on one database."""
    start = time.perf_counter()
    game = live_game("Bench turnaround", WARMUP + 2 * args.replies)
    replies = build_messages(game, 1)
    mark = db.session.scalar(select(OutboxMessage.id).order_by(OutboxMessage.id.desc())
                             .limit(1)) or 0
    warm, paced, burst = (replies[:WARMUP], replies[WARMUP:WARMUP + args.replies],
                          replies[WARMUP + args.replies:])
    print(f"[{kind}] {server_version(kind)}; a game of {len(replies)} players set up in "
          f"{time.perf_counter() - start:.1f} s; {load()}", flush=True)
    folder = f"{kind}-{os.getpid()}"
    client = connect(server)
    client.create_folder(folder)
    with tempfile.TemporaryDirectory(prefix="vpsleuth-bench-") as tmp:
        log = Path(tmp) / "watcher.log"
        process = watcher_process(kind, url, server, folder, log)
        try:
            wait_for(lambda: current_holder().startswith("watch@") or process.poll() is not None,
                     "the watcher to take the mailbox", 60)
            if process.poll() is not None:
                raise SystemExit(f"the watcher ended:\n{log.read_text()}")
            run(client, folder, warm, 2.0, mark)
            ours_paced = run(client, folder, paced, args.rate, mark)
            time.sleep(1)
            ours_burst = run(client, folder, burst, None, mark)
        finally:
            process.send_signal(signal.SIGTERM)
            code = process.wait(timeout=60)
        if code != 0:
            raise SystemExit(f"the watcher exited with {code}:\n{log.read_text()}")
    client.logout()
    check(replies, mark)  # every reply applied with the lines written, one confirmation each
    stored = db.session.scalar(select(InboundMessage.id).where(InboundMessage.source != "imap"))
    if stored is not None:
        raise SystemExit("a reply came in by another entrance than IMAP")
    print(f"[{kind}] all {len(replies)} applied with the lines the players wrote, one "
          f"confirmation each; {load()}", flush=True)
    return ours_paced, ours_burst


def main() -> None:
    args = arguments()
    rows = [("db", "measurement", "replies", "p50", "p95", "max", "mean")]
    targets = []
    version = subprocess.run(["dovecot", "--version"], capture_output=True, text=True).stdout
    with PrivateDovecot() as server:
        print(f"Dovecot {version.strip()}; {load()}", flush=True)
        base = baseline(server, args.replies, args.rate)
        base_p50, base_p95 = percentiles(base)
        for kind in args.db:
            with temporary_database(kind) as url, bench_app(url, kind):
                paced, burst = bench(kind, url, server, args)
            p50, p95 = percentiles(paced)
            rows += [row(kind, f"ours, paced ({args.rate:g} a second on average)", paced),
                     row(kind, "ours, burst (all at once)", burst),
                     (kind, "ratio ours paced / baseline", "", f"{p50 / base_p50:.1f}x",
                      f"{p95 / base_p95:.1f}x", "", "")]
            targets.append((kind, "met" if p95 <= TARGET else "NOT met", p95))
        rows.append(row("-", "baseline: APPEND to EXISTS, a bare client in IDLE", base))
    print()
    print(f"mail turnaround: APPEND to the confirmation queued, {args.replies} replies a run, "
          f"through Dovecot and `vpsleuth mail idle`; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(table(rows))
    for kind, verdict, p95 in targets:
        print(f"{kind}: target p95 <= {TARGET:g} s (paced): {verdict} ({p95:.3f} s)")


if __name__ == "__main__":
    main()
