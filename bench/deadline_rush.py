"""Benchmark: the last hour before a deadline, compressed; turns by web, API and mail.

    .venv/bin/python bench/deadline_rush.py             # 100 games of 50, 60 s (30-40 min)
    .venv/bin/python bench/deadline_rush.py --quick     # 10 games of 10, 15 s: a smoke check

PostgreSQL only (a database of its own, copied from a template the script builds
once, dropped at the end). Two app hosts: each a gunicorn (``--workers`` sync
workers) serving vpsleuth.wsgi:app and a ``vpsleuth mail smtpd`` on ports of its
own; two ``vpsleuth scheduler`` processes (the production tick of 30 s unless
``--tick``) send the outbox to an SMTP sink (tests/smtp_sink.py, in a process of
its own) and resolve the other games. Set up through the services
(bench/live_game.py): ``--games`` games of ``--players`` players, round 2 open,
no turn in it yet; and ``--other-games`` small games whose round 2, every turn
in, falls due during the rush (deadlines spread evenly over it): the schedulers
resolve them while the turns come in.

Every player of the rush sends a turn (bench/replies.py's turns: codes, words,
English and German) at a random moment of the ``--seconds`` window; three in ten
send a second one later in the window (it replaces the first), one in twenty a
third, each after the answer to the one before. A third of the players use the
web form as a browser does (the turn page, the text typed into its box, Save,
the redirect followed), a third PUT /api/v1/games/N/turn, a third reply to
their round mail (as Gmail, Thunderbird, Outlook or Apple Mail write it)
through the SMTP receiver. A player's sends alternate between the hosts.
Acceptance time: from sending to the acknowledgement, that is the web form's
redirect (the save), the API's 200 with the accepted version, the SMTP
receiver's 250 to DATA (given once the turn is applied). The pages around the
form are load, not timed.

Why the SMTP receiver and not the MTA pipe: ``vpsleuth mail ingest`` starts
Python and the app for each message, about 1.2 s of CPU (1.7-2.2 s before
OR-Tools and pywebpush were imported where they are used; measured on this
machine), so a mail rush needs a process that stays up; that is the entrance
an operator relays a busy reply address to. Baseline: the same load, seeded
alike, on one app host (one gunicorn, one SMTP receiver) from the same
template: what the second host buys. Both share this machine's cores, so it
buys concurrency (workers waiting on PostgreSQL), not CPU. A raw-SQL store
would neither take mail nor render pages: it could not take the same load.

The count check, after the outbox has drained: every acknowledged turn stored
once (as many accepted versions as acknowledgements per player: a send that
failed must have stored nothing), the last version of each player is the last
text acknowledged, nothing refused; every other game's round resolved exactly
once (audit log); every mail queued since the start received by the sink
exactly once. Sends that failed (no acknowledgement: a connection refused or
timed out) are counted and printed, not retried. Prints figures; asserts
nothing about speed; exits 1 if a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import shutil
import smtplib
import sys
import tempfile
import time
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from dbs import POSTGRES_ADMIN_URL, bench_app, server_version, temporary_database
from flask import Flask
from live_game import live_game, players_of
from loadgen import gunicorn, listening, percentile, request, workers_of
from replies import STYLES, reply, turn_text
from sqlalchemy import create_engine, func, make_url, select, text, update
from timing import load, process_cpu, table

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.models import (
    AuditEntry,
    InboundMessage,
    OutboxMessage,
    Player,
    Round,
    TurnVersion,
    utcnow,
)
from vpsleuth.services import accounts, sessions, turns

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from process_support import environment, start, stop  # noqa: E402 (the tests' own helpers)
from smtp_sink import Sink, free_port  # noqa: E402

CHANNELS = ("web", "api", "mail")
AGAIN = (0.30, 0.05)  # shares of the players who send a second turn, and a third
TIMEOUT = 3600.0  # seconds one send may take before it counts as failed
FULL = {"games": 100, "players": 50, "seconds": 60.0, "other_games": 100, "other_players": 10}
QUICK = {"games": 10, "players": 10, "seconds": 15.0, "other_games": 10, "other_players": 5}
# The turn form's fields as templates/web/player/turn.html renders them: what a browser posts.
FORM = re.compile(r'<form [^>]*id="turn-form"[^>]*>(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
CHECKED = re.compile(r'<input type="radio" name="([^"]+)" id="[^"]*" value="([^"]*)" checked>')
SELECT = re.compile(r'<select [^>]*name="([^"]+)"[^>]*>(.*?)</select>', re.S)
SELECTED = re.compile(r'<option value="([^"]*)" selected>')


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, default in FULL.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=None,
                            help=f"(default: {default}; --quick: {QUICK[name]})")
    parser.add_argument("--quick", action="store_true", help="a small run, a smoke check")
    parser.add_argument("--workers", type=int, default=2,
                        help="gunicorn sync workers per app host (default: 2)")
    parser.add_argument("--tick", type=float, default=None,
                        help="the schedulers' SCHEDULER_TICK_SECONDS (default: unset, the "
                             "production default of 30 s)")
    parser.add_argument("--drain-limit", type=float, default=1200.0,
                        help="seconds to wait for the outbox after the rush (default: 1200)")
    parser.add_argument("--baseline", choices=("one-host", "none"), default="one-host",
                        help="also run the same load on one app host (default) or not")
    args = parser.parse_args()
    for name, default in (QUICK if args.quick else FULL).items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    if min(args.games, args.players, args.other_games, args.other_players, args.workers) < 1:
        parser.error("sizes and --workers must be at least 1")
    if args.seconds <= 0 or (args.tick is not None and args.tick <= 0):
        parser.error("--seconds and --tick must be above 0")
    return args


@dataclass
class Plan:
    """One player of the rush: the entrance, when each turn goes and what it says."""

    game_id: int
    round_id: int
    player_id: int
    seat: int
    channel: str
    times: list[float]  # shares of the window, ascending
    texts: list[str]
    secret: str = ""  # the API token, or the session cookie
    mails: list[tuple[str, str, bytes]] = field(default_factory=list)  # from, to, message


@dataclass(frozen=True)
class Sent:
    """One turn sent, and what came of it ('' when acknowledged)."""

    plan: Plan
    number: int
    host: int
    at: float  # seconds from the start of the window
    seconds: float
    problem: str


@dataclass
class Setup:
    """What every run sends, and the rounds the schedulers resolve meanwhile."""

    plans: list[Plan]
    due_rounds: list[int]  # the other games' round 2, which fall due during the rush


# --- set-up, once, into the template database -------------------------------------------

def build(args: argparse.Namespace, app: Flask) -> Setup:
    """The games, the players' credentials and their turns; every mail so far marked sent."""
    rng = random.Random(5)
    rush = [live_game(f"Rush {g + 1}", args.players, open_round=2, seed=g + 1)
            for g in range(args.games)]
    due = []
    for g in range(args.other_games):
        game = live_game(f"Due {g + 1}", args.other_players, open_round=2, seed=1000 + g)
        for player in players_of(game):
            turns.submit_turn(player, turn_text(rng, player.language, first=True),
                              channel="web")
        due.append(game.open_round.id)
    plans = []
    for g, game in enumerate(rush):
        for seat, player in enumerate(players_of(game)):
            draw = rng.random()
            count = 1 + sum(draw < share for share in AGAIN)
            plans.append(Plan(game.id, game.open_round.id, player.id, seat,
                              CHANNELS[(g + seat) % len(CHANNELS)],
                              sorted(rng.random() for _ in range(count)),
                              [turn_text(rng, player.language, first=n == 0)
                               for n in range(count)]))
    _credentials(app, plans)
    db.session.execute(update(OutboxMessage).values(status="sent", sent_at=utcnow()))
    db.session.commit()
    return Setup(plans, due)


def _credentials(app: Flask, plans: list[Plan]) -> None:
    """An API token, a signed-in browser's cookie, or the replies to the round mail."""
    serializer = app.session_interface.get_signing_serializer(app)
    cookie = app.config["SESSION_COOKIE_NAME"]
    round_mails = {m.player_id: m for m in db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "round_opened", OutboxMessage.subject.contains(" 2 ")))}
    number = 0
    for plan in plans:
        player = db.session.get(Player, plan.player_id)
        if plan.channel == "api":
            plan.secret = accounts.issue_api_token(player=player, label="rush")[1]
        elif plan.channel == "web":
            sid = sessions.start(player.email, player_id=player.id)
            plan.secret = f"{cookie}={serializer.dumps({'sid': sid, '_permanent': True})}"
        else:
            mail, to = round_mails[player.id], keys.reply_address(player)
            for turn in plan.texts:
                number += 1
                plan.mails.append((player.email, to, reply(
                    STYLES[number % len(STYLES)], number, player_name=player.name,
                    player_email=player.email, to=to, subject=mail.subject,
                    in_reply_to=mail.message_id, original_text=mail.body_text,
                    original_html=mail.body_html, turn=turn, lang=player.language)))


@contextlib.contextmanager
def copy_of(template: str) -> Iterator[str]:
    """A new database made from the template (a file copy: the same start for every run)."""
    with temporary_database("postgresql") as url:
        admin = create_engine(make_url(POSTGRES_ADMIN_URL), isolation_level="AUTOCOMMIT")
        name, source = make_url(url).database, make_url(template).database
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}"'))
            conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{source}"'))
        admin.dispose()
        yield url


# --- the processes ------------------------------------------------------------------------

def _sink(port: int, conn) -> None:
    sink = Sink(port)
    sink.start()
    conn.send("ready")
    while conn.recv() != "stop":  # any other word asks for the Message-IDs received
        conn.send(sink.message_ids())
    sink.stop()


class SinkProcess:
    """tests/smtp_sink.py's sink in a process of its own: its parsing is not the client's."""

    def __init__(self) -> None:
        self.port = free_port()
        here, there = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=_sink, args=(self.port, there), daemon=True)
        self.process.start()
        there.close()
        if not here.poll(30):
            raise SystemExit("the SMTP sink did not start")
        here.recv()
        self.conn = here

    def ask(self, command: str):
        self.conn.send(command)
        return self.conn.recv()

    def close(self) -> None:
        self.conn.send("stop")
        self.process.join(30)


@contextlib.contextmanager
def service(args: list[str], env: dict[str, str], log: Path, problems: list[str]):
    """``vpsleuth ARGS`` running; afterwards a problem noted if it failed or logged a crash."""
    process = start(args, env, log)
    try:
        yield process
    finally:
        code = stop(process) if process.poll() is None else process.returncode
        output = log.read_text()
        if code != 0 or "Traceback" in output:
            first = max(0, output.find("Traceback"))
            problems.append(f"vpsleuth {' '.join(args)} exited with {code}, "
                            f"{output.count('Traceback')} tracebacks in {log.name}; the first:\n"
                            + output[first:first + 2500])


def cpu_seconds(pids: list[int]) -> float:
    """The user and system CPU time of these processes so far (/proc), in seconds; a
    process that has ended counts nothing."""
    return sum(process_cpu(pid) or 0.0 for pid in pids)


def listen_overflows() -> int:
    """How many connections the kernel dropped so far because a listen queue was full."""
    names, values = (line.split() for line in Path("/proc/net/netstat").read_text()
                     .splitlines() if line.startswith("TcpExt:"))
    return int(dict(zip(names, values, strict=True))["ListenOverflows"])


def wait_until(condition, seconds: float) -> float | None:
    """Poll ``condition`` for at most ``seconds``; the seconds it took, or None."""
    began = time.monotonic()
    while not condition():
        if time.monotonic() - began > seconds:
            return None
        time.sleep(0.2)
    return time.monotonic() - began


# --- the rush -----------------------------------------------------------------------------

async def rush(plans: list[Plan], http: list[int], smtp: list[int], seconds: float
               ) -> list[Sent]:
    """Every player's turns at their moments; one at a time per player."""
    loop = asyncio.get_running_loop()
    mailers = sum(p.channel == "mail" for p in plans)
    loop.set_default_executor(ThreadPoolExecutor(max_workers=max(4, mailers)))
    begin = time.perf_counter() + 0.5
    sent: list[Sent] = []

    async def player(plan: Plan) -> None:
        browser = Browser(plan.secret)
        for n, share in enumerate(plan.times):
            await asyncio.sleep(max(0.0, begin + share * seconds - time.perf_counter()))
            host = (plan.seat + n) % len(http)
            at = time.perf_counter() - begin
            try:
                if plan.channel == "web":
                    took, problem = await web_turn(http[host], plan.game_id,
                                                   plan.texts[n], browser)
                elif plan.channel == "api":
                    took, problem = await api_turn(http[host], plan, n)
                else:
                    took, problem = await loop.run_in_executor(None, mail_turn, smtp[host],
                                                               plan.mails[n])
            except (OSError, TimeoutError, smtplib.SMTPException) as exc:
                took, problem = time.perf_counter() - begin - at, type(exc).__name__
            sent.append(Sent(plan, n, host, at, took, problem))

    await asyncio.gather(*(player(plan) for plan in plans))
    return sent


async def api_turn(port: int, plan: Plan, n: int) -> tuple[float, str]:
    body = json.dumps({"text": plan.texts[n], "round": 2}).encode()
    began = time.perf_counter()
    status, _, answer = await asyncio.wait_for(request(
        port, "PUT", f"/api/v1/games/{plan.game_id}/turn",
        {"Authorization": f"Bearer {plan.secret}", "Content-Type": "application/json"},
        body), TIMEOUT)
    took = time.perf_counter() - began
    if status != 200 or json.loads(answer)["version"]["status"] != "accepted":
        return took, f"API {status}"
    return took, ""


@dataclass
class Browser:
    """A signed-in browser: its session cookie, and the turn form its last page showed."""

    cookie: str
    form: dict[str, str] | None = None


async def web_turn(port: int, game_id: int, turn: str, browser: Browser) -> tuple[float, str]:
    """The turn page (unless the last answer showed it), the save (timed), the page after."""
    path = f"/games/{game_id}/turn"
    if browser.form is None:
        await _page(port, browser, path)
    form = {**(browser.form or {}), "text": turn, "action": "save"}
    began = time.perf_counter()
    status, headers, _ = await asyncio.wait_for(request(
        port, "POST", path, {"Cookie": browser.cookie,
                             "Content-Type": "application/x-www-form-urlencoded"},
        urllib.parse.urlencode(form).encode()), TIMEOUT)
    took = time.perf_counter() - began
    _keep_cookie(browser, headers)
    browser.form = None
    where = headers.get("location", "")
    if status not in (302, 303) or not where.endswith("#saved"):
        return took, f"web {status} {where}"
    with contextlib.suppress(OSError, TimeoutError):  # the page after: load, not the answer
        await _page(port, browser, urllib.parse.urlsplit(where).path)
    return took, ""


async def _page(port: int, browser: Browser, path: str) -> None:
    """Load the page; keep its turn form's fields as the browser would post them back."""
    status, headers, body = await asyncio.wait_for(
        request(port, "GET", path, {"Cookie": browser.cookie}), TIMEOUT)
    _keep_cookie(browser, headers)
    browser.form = turn_form(body.decode()) if status == 200 else None  # None: the save says


def turn_form(page: str) -> dict[str, str] | None:
    """The turn form's fields as a browser posts them, unchanged (None: no turn form)."""
    found = FORM.search(page)
    if found is None:
        return None
    form = found.group(1)
    fields = dict(HIDDEN.findall(form)) | dict(CHECKED.findall(form))
    for name, options in SELECT.findall(form):
        chosen = SELECTED.search(options)
        fields[name] = chosen.group(1) if chosen else ""
    return fields


def _keep_cookie(browser: Browser, headers: dict[str, str]) -> None:
    cookie = headers.get("set-cookie", "").split(";")[0]
    if cookie.partition("=")[2]:
        browser.cookie = cookie


def mail_turn(port: int, mail: tuple[str, str, bytes]) -> tuple[float, str]:
    """A reply through the SMTP receiver; acknowledged by the 250 to DATA."""
    began = time.perf_counter()
    with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as smtp:
        smtp.sendmail(*mail)
        return time.perf_counter() - began, ""


# --- one run, and its checks ----------------------------------------------------------------

@dataclass
class Run:
    """One run: what was sent, what the checks found, and what else it printed."""

    label: str
    sent: list[Sent]
    problems: list[str]
    notes: list[str]


def run(label: str, hosts: int, template: str, setup: Setup, args: argparse.Namespace
        ) -> Run:
    """Copy the template, start the processes, rush, wait for the outbox; stop them; check."""
    problems: list[str] = []
    with (copy_of(template) as url, bench_app(url, "postgresql"),
          tempfile.TemporaryDirectory(prefix="vpsleuth-bench-rush-") as folder):
        with contextlib.ExitStack() as stack:
            sink = SinkProcess()
            stack.callback(sink.close)
            settings = {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench-only",
                        "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": sink.port}
            if args.tick is not None:
                settings["SCHEDULER_TICK_SECONDS"] = args.tick
            env = environment(**settings)
            servers = [stack.enter_context(gunicorn(
                "vpsleuth.wsgi:app", args.workers, 1,
                {f"VPSLEUTH_{k}": str(v) for k, v in settings.items()},
                Path(folder, f"gunicorn{n}.log"))) for n in range(hosts)]
            smtp = [free_port() for _ in range(hosts)]
            receivers = [stack.enter_context(service(
                ["mail", "smtpd", "--port", str(port)], env, Path(folder, f"smtpd{n}.log"),
                problems)).pid for n, port in enumerate(smtp)]
            schedulers = [stack.enter_context(service(
                ["scheduler"], env, Path(folder, f"scheduler{n}.log"), problems)).pid
                for n in range(2)]
            if wait_until(lambda: all(map(listening, smtp)), 60) is None:
                raise SystemExit("the SMTP receivers did not start")
            groups = {"app hosts": [w for master, _ in servers for w in workers_of(master)],
                      "SMTP receivers": receivers, "schedulers": schedulers,
                      "this client": [os.getpid()]}
            before = {name: cpu_seconds(pids) for name, pids in groups.items()}
            dropped = listen_overflows()
            mark = db.session.scalar(select(func.max(OutboxMessage.id)))
            _set_deadlines(setup.due_rounds, args.seconds)
            print(f"[{label}] {server_version('postgresql')}; {hosts} app host(s) of "
                  f"{args.workers} workers and an SMTP receiver each, 2 schedulers; {load()}",
                  flush=True)
            sent = asyncio.run(rush(setup.plans, [port for _, port in servers], smtp,
                                    args.seconds))
            dropped = listen_overflows() - dropped
            print(f"[{label}] last answer {max(s.at + s.seconds for s in sent):.1f} s after "
                  f"the start; {load()}", flush=True)
            drain = wait_until(lambda: _drained(mark, setup.due_rounds), args.drain_limit)
            at_sink = Counter(sink.ask("ids"))
            spent = {name: cpu_seconds(pids) - before[name] for name, pids in groups.items()}
            spent["PostgreSQL backends"] = cpu_seconds(list(db.session.scalars(text(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()"))))
        if drain is None:
            problems.append(f"the outbox was not drained {args.drain_limit:.0f} s after the "
                            "rush, or a due round not resolved")
        notes = [f"outbox drained and every due round resolved {drain or 0:.0f} s after the "
                 "last answer",
                 "CPU seconds from the start to the drained outbox: " + ", ".join(
                     f"{name} {cpu:.1f}" for name, cpu in spent.items())
                 + " (the backends still connected at the end)",
                 f"connections dropped by a full listen queue during the rush: {dropped} "
                 "(TcpExt ListenOverflows, the whole machine's)"]
        notes += _check(sent, setup, mark, at_sink, problems)
        if problems:
            kept = shutil.copytree(folder, tempfile.mkdtemp(prefix="vpsleuth-bench-rush-logs-"),
                                   dirs_exist_ok=True)
            problems.append(f"the processes' logs are kept in {kept}: " + ", ".join(
                f"{log.name} {log.read_text().count('Traceback')} tracebacks, "
                f"{log.read_text().count('WORKER TIMEOUT')} worker timeouts"
                for log in sorted(Path(kept).iterdir())))
    return Run(label, sent, problems, notes)


def _set_deadlines(rounds: list[int], seconds: float) -> None:
    """The other games' deadlines, spread evenly over the window about to start."""
    now = utcnow()
    db.session.execute(update(Round), [
        {"id": rid, "deadline": now + timedelta(seconds=(i + 0.5) * seconds / len(rounds))}
        for i, rid in enumerate(rounds)])
    db.session.commit()


def _drained(mark: int, due: list[int]) -> bool:
    db.session.rollback()  # read what the processes committed
    left = db.session.scalar(select(func.count(OutboxMessage.id)).where(
        OutboxMessage.id > mark, OutboxMessage.status != "sent"))
    open_ = db.session.scalar(select(func.count(Round.id)).where(
        Round.id.in_(due), Round.state != "resolved"))
    return left == 0 and open_ == 0


def _check(sent: list[Sent], setup: Setup, mark: int, at_sink: Counter,
           problems: list[str]) -> list[str]:
    """The count check; what it found, as lines (problems appended to ``problems``)."""
    db.session.rollback()
    acked: dict[int, list[str]] = defaultdict(list)
    for s in sorted(sent, key=lambda s: (s.plan.player_id, s.number)):
        if not s.problem:
            acked[s.plan.player_id].append(s.plan.texts[s.number])
    stored: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for player_id, status, version_text in db.session.execute(
            select(TurnVersion.player_id, TurnVersion.status, TurnVersion.text)
            .where(TurnVersion.round_id.in_({p.round_id for p in setup.plans}))
            .order_by(TurnVersion.received_at, TurnVersion.id)):
        stored[player_id].append((status, version_text))
    lost = twice = wrong_last = refused = 0
    for plan in setup.plans:
        mine, theirs = acked[plan.player_id], stored[plan.player_id]
        lost += max(0, len(mine) - len(theirs))
        twice += max(0, len(theirs) - len(mine))
        refused += sum(status != "accepted" for status, _ in theirs)
        if mine and (not theirs or _lines(theirs[-1][1]) != _lines(mine[-1])):
            wrong_last += 1
    total = sum(map(len, acked.values()))
    inbound = Counter(db.session.scalars(select(InboundMessage.status)))
    resolved = Counter(game_id for game_id, detail in db.session.execute(
        select(AuditEntry.game_id, AuditEntry.detail).where(
            AuditEntry.action == "resolve_round", AuditEntry.game_id.in_(
                select(Round.game_id).where(Round.id.in_(setup.due_rounds)))))
        if json.loads(detail)["round"] == 2)
    lag = sorted((r.resolved_at - r.deadline).total_seconds() for r in db.session.scalars(
        select(Round).where(Round.id.in_(setup.due_rounds))) if r.resolved_at)
    queued = dict(db.session.execute(select(OutboxMessage.message_id, OutboxMessage.kind)
                                      .where(OutboxMessage.id > mark)).all())
    kinds = Counter(queued.values())
    once = sum(at_sink[m] == 1 for m in queued)
    again = Counter(f"{queued.get(m, 'not queued')} x{n}" for m, n in at_sink.items() if n > 1)
    if again:
        problems.append(f"mails received more than once at the sink: {dict(again)}")
    for bad, what in (
            (lost, "acknowledged turns not stored"), (twice, "turns stored twice or unasked"),
            (wrong_last, "players whose last version is not their last acknowledged text"),
            (refused, "versions refused"),
            (len(setup.due_rounds) - sum(n == 1 for n in resolved.values()),
             "other games not resolved exactly once"),
            (len(queued) - once, "queued mails not received exactly once at the sink"),
            (sum(at_sink.values()) - once, "mails at the sink beyond one per queued mail"),
            (sum(inbound.values()) - inbound["applied"], "inbound mails not applied")):
        if bad:
            problems.append(f"{bad} {what}")
    failed = Counter(s.problem for s in sent if s.problem)
    hosts = Counter(s.host for s in sent if not s.problem)
    return [f"turns acknowledged by host: {' / '.join(str(hosts[h]) for h in sorted(hosts))}",
            f"{total} turns acknowledged, {sum(map(len, stored.values()))} stored; lost "
            f"{lost}, stored twice {twice}, last version wrong {wrong_last}, refused {refused}; "
            f"{sum(failed.values())} sends not acknowledged {dict(failed.most_common(4))}",
            f"{len(setup.due_rounds)} other games due, {sum(resolved.values())} resolutions "
            f"(one each: {sum(n == 1 for n in resolved.values())}); deadline to resolved: "
            f"median {percentile(lag, 50):.1f} s, max {lag[-1]:.1f} s" if lag else
            "no other game resolved",
            f"{len(queued)} mails queued ({', '.join(f'{k} {n}' for k, n in kinds.items())}); "
            f"received exactly once at the sink: {once}; {sum(at_sink.values())} received "
            f"in all; inbound mails {dict(inbound)}"]


def _lines(turn: str) -> list[str]:
    return [line.strip() for line in turn.split("\n") if line.strip()]


# --- figures ------------------------------------------------------------------------------

def figures(result: Run) -> dict[str, tuple]:
    """By entrance and in all: turns acknowledged, their rate over the whole run (the
    first send to the last answer), p50, p95, p99 and max in ms, sends failed."""
    end = max(s.at + s.seconds for s in result.sent)
    out = {}
    for channel in (*CHANNELS, "all"):
        mine = [s for s in result.sent if channel in ("all", s.plan.channel)]
        times = sorted(1000 * s.seconds for s in mine if not s.problem) or [0.0]
        ok = sum(not s.problem for s in mine)
        out[channel] = (ok, ok / end, *(percentile(times, p) for p in (50, 95, 99)),
                        times[-1], len(mine) - ok)
    return out


def main() -> None:
    args = arguments()
    started = time.perf_counter()
    with temporary_database("postgresql") as template:
        with bench_app(template, "postgresql") as app:
            setup = build(args, app)
        offered = sum(len(p.times) for p in setup.plans)
        print(f"set up {args.games} games of {args.players} players ({offered} turns to "
              f"send in {args.seconds:g} s: {offered / args.seconds:.0f}/s) and "
              f"{args.other_games} games of {args.other_players} due during it, in "
              f"{time.perf_counter() - started:.0f} s; {load()}", flush=True)
        runs = [run("two app hosts", 2, template, setup, args)]
        if args.baseline == "one-host":
            runs.append(run("one app host", 1, template, setup, args))
    header = ("run", "entrance", "turns", "turns/s", "p50 ms", "p95 ms", "p99 ms", "max ms",
              "failed")
    found = [figures(result) for result in runs]
    body = [(result.label, channel, f"{n}", f"{rate:.1f}",
             *(f"{ms:,.0f}" for ms in times), f"{failed}")
            for result, by_channel in zip(runs, found, strict=True)
            for channel, (n, rate, *times, failed) in by_channel.items()]
    if len(found) == 2:
        ours, base = found[0]["all"], found[1]["all"]
        body.append(("ratio one host / two", "all", "", f"{base[1] / ours[1]:.2f}x",
                     *(f"{b / max(o, 1.0):.1f}x" for o, b in zip(ours[2:6], base[2:6],
                                                                 strict=True)), ""))
    print()
    print(f"deadline rush: {args.games} games x {args.players} players, turns by web, API "
          f"and mail in {args.seconds:g} s; {args.other_games} games of {args.other_players} "
          f"resolved meanwhile; acceptance time, sending to acknowledgement")
    print(table([header, *body]))
    failed = False
    for result in runs:
        for line in result.notes:
            print(f"[{result.label}] {line}")
        for problem in result.problems:
            print(f"[{result.label}] CHECK FAILED: {problem}")
        failed |= bool(result.problems)
    print(f"{'count check FAILED' if failed else 'count check passed'}; {load()}")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
