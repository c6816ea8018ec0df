"""Benchmark: a 1,000-player round with every player subscribed by push and by mail: how
long until every notice is handed to the push service and every mail to the SMTP server.

    .venv/bin/python bench/notify_fanout.py                      # both databases (about 15 min)
    .venv/bin/python bench/notify_fanout.py --players 100 --db sqlite --repeat 3 --alone

For each database: the game of bench/data.py (round 5 open, every turn in), each
player with one Web Push device (a real P-256 key pair) on a local push service
(tests/notices/push_service.py) and an address the outbox mails to a local aiosmtpd
server; both servers run in a process of their own, so their work does not share
this process's interpreter. Timed, after a warm-up (one resolution, not drained), the
data reset before each run:

* the round's resolution, as the scheduler calls it: results, the report and the
  next round's mail to every player, and a push notice to every device, all queued
  in the round's transaction; and the part of it spent queueing the push notices;
* the queue's drain after it: the send-notices and send-outbox jobs, each in a
  thread of its own as the background scheduler runs them, until the push service
  holds every notice and the SMTP server every mail (the servers' clock: the time
  of the last arrival); with ``--alone``, each job alone too;
* baselines, the unavoidable work without queue or database: pywebpush's webpush()
  to every device in a loop (encryption, VAPID signature, POST on a kept
  connection), and smtplib sending the same number of mails of the same sizes on
  one connection.

Prints figures; asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import smtplib
import sys
import threading
import time
from email.message import EmailMessage
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from data import NOW, Sizes, build, reset
from dbs import bench_app, bulk_load, server_version, start_afresh, temporary_database
from pywebpush import webpush
from sqlalchemy import func, select
from timing import Figures, load, seconds, table

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.models import Game, MailBody, Notice, OutboxMessage
from vpsleuth.notices import push as push_channel
from vpsleuth.services import push
from vpsleuth.services.resolution import resolve_round

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from notices.push_service import PushService, b64url  # noqa: E402 (the tests' own helpers)
from smtp_sink import free_port  # noqa: E402

TIMEOUT = 600  # seconds a drain may take before the run is called broken


# --- the receivers, in a process of their own --------------------------------------------

def receivers(conn) -> None:
    """The push service and an SMTP server that count what they get and when the last
    came (time.monotonic, one clock for every process of the machine)."""
    from aiosmtpd.controller import Controller

    service = PushService().start()
    state = {"mails": 0, "last_mail": 0.0}
    lock = threading.Lock()

    class Counting:
        async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802
            with lock:
                state["mails"] += len(envelope.rcpt_tos)
                state["last_mail"] = time.monotonic()
            return "250 OK"

    port = free_port()
    smtp = Controller(Counting(), hostname="127.0.0.1", port=port)
    smtp.start()
    conn.send((service.origin, port))
    while True:
        command = conn.recv()
        if command == "stop":
            break
        if command == "reset":
            service.reset()
            with lock:
                state.update(mails=0, last_mail=0.0)
            conn.send(None)
        elif command == "counts":
            with lock:
                conn.send((len(service.received), service.last_at, state["mails"],
                           state["last_mail"]))
    smtp.stop()
    service.stop()


class Receivers:
    def __init__(self) -> None:
        here, there = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=receivers, args=(there,), daemon=True)
        self.process.start()
        there.close()  # so a receiver process that dies is seen here as EOF
        self.conn = here
        if not here.poll(30):
            raise SystemExit("the push service and SMTP server did not start")
        self.push_origin, self.smtp_port = here.recv()

    def ask(self, command: str):
        self.conn.send(command)
        return self.conn.recv()

    def wait_for(self, pushes: int, mails: int) -> tuple[float, float]:
        """Block until the servers hold ``pushes`` and ``mails``; the time each last came."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            got_push, last_push, got_mail, last_mail = self.ask("counts")
            if got_push >= pushes and got_mail >= mails:
                return last_push, last_mail
            time.sleep(0.005)
        raise SystemExit(f"drain incomplete after {TIMEOUT} s: {got_push} of {pushes} "
                         f"pushes, {got_mail} of {mails} mails")

    def stop(self) -> None:
        self.conn.send("stop")
        self.process.join(10)


# --- the set-up ------------------------------------------------------------------------------

def devices(origin: str, players: int) -> list[dict]:
    """One subscription row per player (the bench's players are p1 .. pN)."""
    rows = []
    for pid in range(1, players + 1):
        point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        rows.append(dict(id=pid, email=f"p{pid}@example.org",
                         endpoint=f"{origin}/push/v2/p{pid}", p256dh=b64url(point),
                         auth=b64url(pid.to_bytes(16, "big")), label="bench"))
    return rows


def prepare(kind: str, sizes: Sizes, receivers_: Receivers) -> None:
    def undo(conn) -> None:
        conn.exec_driver_sql("DELETE FROM notice")
        reset(conn, sizes)
    start_afresh(kind, undo)
    receivers_.ask("reset")


def resolve(game_id: int, sizes: Sizes, spent: list[float]) -> float:
    """Resolve the round (commits); its seconds. ``spent`` gets the push queueing's."""
    keys.forget()
    queue_push = push_channel._queue

    def timed(*args, **kwargs):
        start = time.perf_counter()
        queue_push(*args, **kwargs)
        spent[-1] += time.perf_counter() - start

    spent.append(0.0)
    push_channel._queue = timed
    try:
        start = time.perf_counter()
        if resolve_round(db.session.get(Game, game_id), now=NOW,
                         number=sizes.round_number) is None:
            raise SystemExit("resolve_round did nothing: the set-up is wrong")
        return time.perf_counter() - start
    finally:
        push_channel._queue = queue_push


def drain(app, channels: tuple[str, ...]) -> list[threading.Thread]:
    """Start the jobs of ``channels`` in threads of their own, each until its queue is dry."""
    job = {"push": jobs.send_notices, "mail": jobs.send_outbox}

    def run(send) -> None:
        while send(app) > 0:
            pass

    threads = [threading.Thread(target=run, args=(job[c],)) for c in channels]
    for t in threads:
        t.start()
    return threads


# --- the baselines --------------------------------------------------------------------------

def push_baseline(app, rows: list[dict], payload: str) -> None:
    """webpush() to every device, no queue, no database: the least any sender does."""
    import requests

    key, session = push.vapid(), requests.Session()
    claims = {"sub": push.vapid_subject(), "aud": rows[0]["endpoint"].split("/push/")[0],
              "exp": int(time.time()) + 12 * 3600}
    for row in rows:
        webpush({"endpoint": row["endpoint"], "keys": {"p256dh": row["p256dh"],
                                                       "auth": row["auth"]}},
                data=payload, vapid_private_key=key, vapid_claims=dict(claims),
                content_encoding="aes128gcm", ttl=86400, timeout=10, requests_session=session,
                headers={"Topic": "vpsleuth-game-1", "Urgency": "normal"})


def mail_baseline(port: int, texts: list[tuple[str, str]]) -> None:
    """The same number of mails of the same sizes over one SMTP connection."""
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        for to, text in texts:
            message = EmailMessage()
            message["From"], message["To"], message["Subject"] = "gm@sleuth.test", to, "Round"
            message.set_content(text)
            smtp.send_message(message)


# --- the run ----------------------------------------------------------------------------------

def bench(kind: str, sizes: Sizes, repeat: int, alone: bool, receivers_: Receivers,
          app) -> list[tuple]:
    start = time.perf_counter()
    with db.engine.begin() as conn:
        [game_id] = build(conn, sizes)
        rows = devices(receivers_.push_origin, sizes.players)
        bulk_load(conn, "push_subscription", rows)
    push.vapid_public_key()  # made once, before any run
    print(f"[{kind}] {server_version(kind)}; set up 1 game of {sizes.players} players with "
          f"a push device each in {time.perf_counter() - start:.1f} s; {load()}", flush=True)

    figures = {name: Figures(name, []) for name in (
        "resolve the round (queues mails and push notices)",
        "  of which queueing the push notices",
        "drain both at once: every push handed over",
        "drain both at once: every mail handed over",
        "drain push alone", "drain mail alone",
        "baseline: webpush() to every device, no queue",
        "baseline: smtplib, the same mails on one connection")}
    names = list(figures)
    spent: list[float] = []
    counts = None
    modes = (("push", "mail"), ("push",), ("mail",)) if alone else (("push", "mail"),)
    prepare(kind, sizes, receivers_)
    resolve(game_id, sizes, spent)  # the warm-up: templates compiled, caches filled
    for _ in range(repeat):
        for channels in modes:
            prepare(kind, sizes, receivers_)
            took = resolve(game_id, sizes, spent)
            resolved_at = time.monotonic()
            pushes = db.session.scalar(select(func.count()).select_from(Notice))
            mails = db.session.scalar(select(func.count()).select_from(OutboxMessage).where(
                OutboxMessage.status == "pending"))
            db.session.remove()
            counts = (pushes, mails)
            threads = drain(app, channels)
            last_push, last_mail = receivers_.wait_for(
                pushes if "push" in channels else 0, mails if "mail" in channels else 0)
            for t in threads:
                t.join()
            if channels == ("push", "mail"):
                figures[names[0]].runs.append(took)
                figures[names[1]].runs.append(spent[-1])
                figures[names[2]].runs.append(last_push - resolved_at)
                figures[names[3]].runs.append(last_mail - resolved_at)
            elif channels == ("push",):
                figures[names[4]].runs.append(last_push - resolved_at)
            else:
                figures[names[5]].runs.append(last_mail - resolved_at)
        # The baselines, on what this run queued (read before the next reset).
        payload = db.session.scalar(select(Notice.payload).limit(1))
        by_id = {row["id"]: row for row in rows}
        targets = [by_id[i] for i in db.session.scalars(select(Notice.subscription_id))]
        texts = [(m.to_addr, body.text) for m, body in db.session.execute(
            select(OutboxMessage, MailBody).join(MailBody, OutboxMessage.body_id == MailBody.id)
            .where(OutboxMessage.sent_at >= NOW))]
        receivers_.ask("reset")
        start = time.monotonic()
        push_baseline(app, targets, payload)
        last_push, _ = receivers_.wait_for(len(targets), 0)
        push_took = last_push - start
        start = time.monotonic()
        mail_baseline(receivers_.smtp_port, texts)
        _, last_mail = receivers_.wait_for(0, len(texts))
        figures[names[6]].runs.append(push_took)
        figures[names[7]].runs.append(last_mail - start)
    print(f"[{kind}] each run: {counts[0]} push notices, {counts[1]} mails; done; {load()}",
          flush=True)
    out = [(kind, f.label, seconds(f.median), seconds(f.best)) for f in figures.values()
           if f.runs]
    both = max(figures[names[2]].median, figures[names[3]].median)
    out.append((kind, "ratio drain (both at once) / resolution",
                f"{both / figures[names[0]].median:.1f}x", ""))
    for label, mine, base in (("push drain", 2, 6), ("mail drain", 3, 7),
                              ("push drain alone", 4, 6), ("mail drain alone", 5, 7)):
        if figures[names[mine]].runs:
            out.append((kind, f"ratio {label} / its baseline",
                        f"{figures[names[mine]].median / figures[names[base]].median:.1f}x",
                        ""))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=1,
                        help="timed runs after the warm-up (default: 1; a run of 1,000 "
                             "players drains for minutes)")
    parser.add_argument("--alone", action="store_true",
                        help="also time each job draining alone")
    args = parser.parse_args()
    sizes = Sizes(games=1, players=args.players, tips=36, round_number=5)
    receivers_ = Receivers()
    # Read by create_app (bench/dbs.py builds the app; Flask-Mail reads its settings then).
    os.environ.update({
        "VPSLEUTH_MAIL_SERVER": "127.0.0.1", "VPSLEUTH_MAIL_PORT": str(receivers_.smtp_port),
        "VPSLEUTH_MAIL_TIMEOUT": "30", "VPSLEUTH_BASE_URL": "https://sleuth.test",
        "VPSLEUTH_REPLY_ADDRESS": "vpsleuth@sleuth.test",
        "VPSLEUTH_MAIL_DEFAULT_SENDER": "VP-Sleuth <vpsleuth@sleuth.test>",
        "VPSLEUTH_PUSH_ALLOW_LOOPBACK": "true"})
    rows = [("db", "measurement", "median", "min")]
    try:
        for kind in ["sqlite", "postgresql"] if args.db == "both" else [args.db]:
            with temporary_database(kind) as url, bench_app(url, kind) as app:
                rows += bench(kind, sizes, args.repeat, args.alone, receivers_, app)
    finally:
        receivers_.stop()
    print()
    print(f"notify_fanout: 1 game of {sizes.players} players, each with a push device and "
          f"an address, round {sizes.round_number} resolved; {args.repeat} run(s) after a "
          "warm-up; wall clock")
    print(table(rows))


if __name__ == "__main__":
    main()
