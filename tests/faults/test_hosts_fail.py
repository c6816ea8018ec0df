"""Hosts that fail: a scheduler host cut off or killed, while turns keep coming in.

Four hosts on one machine, each a network namespace on a bridge of the test's
own (tests/netns.py): app1 and app2 serve the JSON API (gunicorn), sched1 and
sched2 run ``vpsleuth scheduler`` with the IMAP watcher. The default namespace
plays the servers' machine: a PostgreSQL cluster of the test's own, the SMTP
sink and a private Dovecot, all listening on the bridge's address only. Turns
go to both app hosts all along. The server is set, as the deployment guide
advises, to notice a silent client within seconds (TCP keepalives,
tcp_user_timeout), and so are the hosts' connections (libpq's options).

The cuts come at set points, not at a random moment, so that each run tests
the same thing:

a. Resolving: the test holds a lock on round_result, so each scheduler stops
   inside a round's transaction, at its results; once the one holding the IMAP
   mailbox stops there, its link is cut and the lock let go. The other host
   resolves that round once the server has ended the cut-off host's
   transaction, and takes the mailbox over once the lease has run out.
b. Sending: the sink cuts the other scheduler off as it begins a mail after a
   few delivered (at MAIL FROM: that mail has not gone out). The other host
   sends the rest; the cut-off host, back, finishes the mail it had begun.
c. The scheduler holding the IMAP mailbox is killed (SIGKILL); the other takes
   the mailbox over once the lease has run out, and processes what came meanwhile.

A cut lasts CUT seconds, then the link comes back. After each scenario: every
round was resolved exactly once (one audit entry, one result per player),
every mail reached the sink exactly once (by Message-ID) and is marked sent,
every turn an app host accepted is stored, every IMAP message was processed
once, and nothing happened twice once the cut-off host was back. The players
wait while a host is cut off in a or killed in c (a second or two), so that no
mail is on its way there: a mail a dead sender had claimed waits STALE_CLAIM
(10 minutes) in mail/outbox.py, longer than a test. The takeover times are printed.
"""

from __future__ import annotations

import contextlib
import email
import imaplib
import json
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from dovecot_server import PrivateDovecot
from flask_migrate import upgrade
from netns import Network
from pg_cluster import Cluster, free_port
from process_support import command, environment
from smtp_sink import DATABASES, REPLY_ADDRESS
from sqlalchemy import create_engine, select, text

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound.lease import NAME as MAILBOX
from vpsleuth.models import (
    AuditEntry,
    InboundMessage,
    OutboxMessage,
    Round,
    RoundResult,
    TurnVersion,
)
from vpsleuth.rules import ATTRIBUTES, GEMS, LOCATIONS, PLACEHOLDERS, Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games

# The network namespaces change the machine's network, which a browser test on the other
# worker would see (tests/conftest.py, machine_to_itself): the module runs alone.
pytestmark = [pytest.mark.parametrize(
    "database", [d for d in DATABASES if d == "postgresql"], scope="module"), pytest.mark.alone]

GAMES, PLAYERS, ROUNDS = 8, 4, 6
TICK = 1  # SCHEDULER_TICK_SECONDS
LEASE = 5  # IMAP_LEASE_SECONDS
CUT = 6  # seconds a link stays down: longer than the server takes to notice (~3 s)
DELIVERED = 3  # mails the host cut off in scenario b delivers first
LIMIT = 30  # seconds any one wait may take
# The lease runs out LEASE s after the last renewal, which came before the cut or the
# kill; a watcher standing by asks every third of it; and 2 s for a busy machine.
MAILBOX_TAKEOVER = LEASE + LEASE / 3 + 2
SECRET = "hosts-fail-test"  # the same in every process: reply keys are signed with it
# The server gives up on a silent client: keepalive probes from 1 s of silence, 2 of
# them 1 s apart, or data unacknowledged for 3 s. The hosts' connections alike, and
# a connection attempt gives up after 3 s.
SERVER = {"tcp_keepalives_idle": "1", "tcp_keepalives_interval": "1",
          "tcp_keepalives_count": "2", "tcp_user_timeout": "3000"}
CLIENT = ("connect_timeout=3&keepalives_idle=1&keepalives_interval=1&keepalives_count=2"
          "&tcp_user_timeout=3000")
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never a proxy


def poll(condition: Callable[[], object], seconds: float = LIMIT,
         pause: float = 0.05) -> tuple[float, object] | None:
    """(time.monotonic(), value) when ``condition()`` first gave a true value; None if it
    did not within ``seconds``."""
    limit = time.monotonic() + seconds
    for _ in range(int(seconds / pause) + 1):
        value = condition()
        if value:
            return time.monotonic(), value
        if time.monotonic() > limit:
            break
        time.sleep(pause)
    return None


def answers(url: str) -> bool:
    try:
        with DIRECT.open(url, timeout=60) as response:
            return response.status == 200
    except OSError:
        return False


@dataclass
class Trap:
    """Cut ``address`` off as it starts its mail number ``after + 1`` from now on."""

    address: str
    after: int
    cut: Callable[[], None]
    started: int = 0
    at: float = 0.0  # time.monotonic() of the cut


class NetworkSink:
    """An SMTP sink on the test network's address; notes which host sent each mail."""

    def __init__(self, host: str) -> None:
        self.host, self.port = host, free_port()
        self.received: list[tuple[str, str]] = []  # (sender's address, Message-ID)
        self.trap: Trap | None = None
        self.lock = threading.Lock()
        self.controller = Controller(self, hostname=host, port=self.port)

    async def handle_MAIL(self, server, session, envelope, address, options):  # noqa: N802
        trap = self.trap
        if trap is not None and session.peer[0] == trap.address:
            trap.started += 1
            if trap.started > trap.after:  # this mail is begun, not sent: cut now
                self.trap = None
                trap.cut()
                trap.at = time.monotonic()
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd API)
        message = email.message_from_bytes(envelope.content)
        with self.lock:
            self.received.append((session.peer[0], message["Message-ID"]))
        return "250 OK"

    def message_ids(self) -> list[str]:
        with self.lock:
            return [message_id for _, message_id in self.received]


class NetworkDovecot(PrivateDovecot):
    """The private Dovecot of tests/dovecot_server.py on the test network's address."""

    def __init__(self, host: str) -> None:
        super().__init__()
        self.host = host

    def start(self) -> None:
        self.config.write_text(self.config.read_text().replace("127.0.0.1", self.host))
        super().start()


@dataclass(frozen=True)
class Sent:
    """One turn sent to an app host, and its answer (status 0: no answer)."""

    host: str
    text: str
    status: int
    version: int | None  # the stored version's id, in the answer
    code: str | None  # the error's code, in the answer


def whole_turn(rng: random.Random, marker: str) -> str:
    question = f"QUESTION {rng.choice(PLACEHOLDERS)} {rng.choice(ATTRIBUTES).word('en')}"
    tips = ", ".join(f"{rng.choice(LOCATIONS)} {g.code}" for g in rng.sample(GEMS, 4))
    return f"DROP ALL\n{question}\nTIP {tips}\n{marker}"


class Players:
    """Turns through both app hosts in turn, one after the other, until stopped."""

    def __init__(self, bases: dict[str, str], seats: list[tuple[int, str]]) -> None:
        self.bases, self.seats = bases, seats
        self.sent: list[Sent] = []
        self.errors: list[BaseException] = []
        self.gate, self.halt = threading.RLock(), threading.Event()  # gate: one turn at a time
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        rng, hosts, limit = random.Random(23), sorted(self.bases), time.monotonic() + 600
        try:
            for number in range(20000):
                if self.halt.is_set() or time.monotonic() > limit:
                    return
                game_id, token = self.seats[number % len(self.seats)]
                host = hosts[number % len(hosts)]
                turn = whole_turn(rng, f"# hosts {number}")
                with self.gate:
                    status, body = self._put(self.bases[host], game_id, token, turn)
                    self.sent.append(Sent(host, turn, status, body.get("version", {}).get("id"),
                                          body.get("error", {}).get("code")))
                self.halt.wait(0.05)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(exc)

    @staticmethod
    def _put(base: str, game_id: int, token: str, turn: str) -> tuple[int, dict]:
        request = urllib.request.Request(
            f"{base}/api/v1/games/{game_id}/turn", method="PUT",
            data=json.dumps({"text": turn}).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        try:
            with DIRECT.open(request, timeout=LIMIT) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            with error:
                return error.code, json.load(error)
        except OSError as exc:
            return 0, {"error": {"code": repr(exc)}}

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """No turn on its way while the test compares what was sent with what is stored."""
        with self.gate:
            yield

    def snapshot(self) -> list[Sent]:
        assert not self.errors, self.errors
        return list(self.sent)


APPS, SCHEDULERS = ("app1", "app2"), ("sched1", "sched2")


class Hosts:
    """The four hosts and the servers' side; what the scenarios look at and wait for."""

    def __init__(self, net: Network, cluster: Cluster, sink: NetworkSink,
                 dovecot: NetworkDovecot, folder: Path) -> None:
        self.net, self.cluster, self.sink, self.dovecot = net, cluster, sink, dovecot
        self.folder = folder
        self.engine = create_engine(cluster.url, isolation_level="AUTOCOMMIT")
        self.env = environment(
            SQLALCHEMY_DATABASE_URI=f"postgresql+psycopg://postgres@{net.address}:"
                                    f"{cluster.port}/postgres?{CLIENT}",
            SECRET_KEY=SECRET, REPLY_ADDRESS=REPLY_ADDRESS, BASE_URL="https://sleuth.test",
            MAIL_SERVER=net.address, MAIL_PORT=sink.port, MAIL_TIMEOUT=LIMIT,
            MAIL_DEFAULT_SENDER=f"VP-Sleuth <{REPLY_ADDRESS}>", SCHEDULER_TICK_SECONDS=TICK,
            IMAP_HOST=net.address, IMAP_PORT=dovecot.port, IMAP_SSL="false",
            IMAP_USER=dovecot.user, IMAP_PASSWORD=dovecot.password, IMAP_LEASE_SECONDS=LEASE,
            IMAP_RECONNECT_MAX_SECONDS=2, INBOUND_PER_SENDER_PER_HOUR=100000)
        self.processes: dict[str, subprocess.Popen] = {}
        self.logs: dict[str, Path] = {}  # the log of each host's latest process
        self.starts: dict[str, int] = {}
        self.players: Players | None = None
        # (game, From, To) of players who mail turns, one a game
        self.mailers: list[tuple[int, str, str]] = []
        self.mailed: list[str] = []  # the Message-IDs of the turns sent by mail

    def spawn(self, name: str) -> None:
        host = self.net.hosts[name]
        if name in APPS:
            # No control socket: gunicorn's default path is one for every gunicorn.
            args = [str(Path(sys.executable).with_name("gunicorn")), "-w", "1", "--threads",
                    "4", "--no-control-socket", "-b", f"{host.address}:8000",
                    "vpsleuth.wsgi:app"]
        else:
            args = [*command(), "scheduler"]
        self.starts[name] = self.starts.get(name, 0) + 1
        self.logs[name] = self.folder / f"{name}.{self.starts[name]}.log"
        with self.logs[name].open("w") as out:  # the child keeps its own descriptor
            self.processes[name] = subprocess.Popen(
                host.command(args), env=self.env, cwd=self.folder, stdout=out,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def base(self, name: str) -> str:
        return f"http://{self.net.hosts[name].address}:8000"

    def log_tails(self) -> str:
        return "\n".join(f"--- {name} ---\n{path.read_text()[-3000:]}"
                         for name, path in self.logs.items())

    def wait(self, condition: Callable[[], object], what: str,
             seconds: float = LIMIT) -> object:
        """The first true value of ``condition()``; fails after ``seconds``."""
        found = poll(condition, seconds)
        assert found is not None, f"gave up waiting for {what} after {seconds} s\n" \
                                  f"{self.log_tails()}"
        return found[1]

    def until(self, conditions: dict[str, Callable[[], object]],
              since: float) -> dict[str, float]:
        """Seconds from ``since`` (time.monotonic()) until each condition first held."""
        times: dict[str, float] = {}

        def all_held() -> bool:
            for name, condition in conditions.items():
                if name not in times and condition():
                    times[name] = time.monotonic() - since
            return len(times) == len(conditions)

        assert poll(all_held) is not None, f"gave up waiting for " \
            f"{set(conditions) - set(times)} after {LIMIT} s\n{self.log_tails()}"
        return times

    def scalar(self, sql: str, **params) -> object:
        with self.engine.connect() as conn:
            return conn.scalar(text(sql), params)

    def rows(self, sql: str, **params) -> list[tuple]:
        with self.engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql), params)]

    def connected(self, name: str, since: object = None) -> bool:
        """Whether host ``name`` has a database connection (begun at ``since`` or later)."""
        return bool(self.scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE host(client_addr) = :address "
            "AND (CAST(:since AS timestamptz) IS NULL OR backend_start >= :since)",
            address=self.net.hosts[name].address, since=since))

    def drained(self) -> bool:
        return self.scalar("SELECT count(*) FROM outbox_message WHERE status <> 'sent'") == 0

    def drain(self) -> None:
        """Until every mail is sent; no API turn meanwhile (each is confirmed by mail)."""
        assert self.players is not None
        with self.players.paused():
            self.wait(self.drained, "every mail to be sent")

    def ready(self) -> None:
        """Every link up, both schedulers running and connected, no mail waiting."""
        for name in self.net.hosts:
            self.net.mend(name)
        for name in SCHEDULERS:
            if self.processes[name].poll() is not None:
                self.spawn(name)
        for name in SCHEDULERS:
            self.wait(lambda n=name: "Scheduler running" in self.logs[n].read_text()
                      and self.connected(n), f"{name} to run")
        self.drain()

    def make_due(self, but: int | None = None) -> list[int]:
        """Every open round's deadline passed a second ago, but game ``but``'s; their ids."""
        return [row[0] for row in self.rows(
            "UPDATE round SET deadline = now() - interval '1 second' WHERE state = 'open' "
            "AND game_id <> :but RETURNING id", but=-1 if but is None else but)]

    def resolved(self, ids: list[int]) -> bool:
        return self.scalar("SELECT count(*) FROM round WHERE id = ANY(:ids) AND "
                           "state = 'resolved'", ids=ids) == len(ids)

    def mailbox_holder(self) -> str:
        """The scheduler whose IMAP watcher holds the mailbox ("" if none of them)."""
        holder = self.scalar("SELECT value FROM scheduler_state WHERE name = :name",
                             name=MAILBOX) or ""
        found = re.search(r":(\d+):", holder)
        pids = {p.pid: name for name, p in self.processes.items() if name in SCHEDULERS}
        return pids.get(int(found.group(1)), "") if found else ""

    def mend(self, name: str) -> float:
        """Host ``name``'s link up again; the time, once it has connected anew."""
        since = self.scalar("SELECT now()")
        self.net.mend(name)
        mended = time.monotonic()
        self.wait(lambda: self.connected(name, since), f"{name} to connect again")
        return mended

    def settle(self) -> None:
        """A few ticks with every host back: whatever any would do (twice) is done."""
        time.sleep(3 * TICK)
        self.drain()

    def mail_turns(self, count: int, game: int | None = None) -> list[str]:
        """``count`` turns by mail into the IMAP mailbox (for game ``game`` only, if
        given); their Message-IDs."""
        mailers = [m for m in self.mailers if game in (None, m[0])]
        ids = []
        with imaplib.IMAP4(self.dovecot.host, self.dovecot.port, timeout=LIMIT) as imap:
            imap.login(self.dovecot.user, self.dovecot.password)
            for _ in range(count):
                number = len(self.mailed)
                _, mail_from, reply_to = mailers[number % len(mailers)]
                msg = EmailMessage()
                msg["From"], msg["To"], msg["Subject"] = mail_from, reply_to, "Re: my turn"
                msg["Date"], msg["Message-ID"] = formatdate(), make_msgid(domain="example.org")
                msg.set_content(whole_turn(random.Random(number), f"# mailed {number}"))
                imap.append("INBOX", "", imaplib.Time2Internaldate(time.time()),
                            msg.as_bytes())
                self.mailed.append(msg["Message-ID"])
                ids.append(msg["Message-ID"])
        return ids

    def processed(self, ids: list[str]) -> bool:
        return self.scalar("SELECT count(*) FROM inbound_message WHERE message_id = ANY(:ids)"
                           " AND status <> 'received'", ids=ids) >= len(ids)

    def close(self) -> None:
        """Stop every process as a service manager would: SIGTERM, then SIGKILL after 30 s."""
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)
        self.engine.dispose()

def check_rounds() -> int:
    """Every resolved round has one audit entry and one result per player; none half done."""
    db.session.rollback()  # read afresh: the hosts commit elsewhere
    rounds = db.session.scalars(select(Round)).all()
    assert {r.state for r in rounds} <= {"open", "resolved"}
    resolved = {(r.game_id, r.number): r.id for r in rounds if r.state == "resolved"}
    audits = Counter((e.game_id, json.loads(e.detail)["round"]) for e in db.session.scalars(
        select(AuditEntry).where(AuditEntry.action == "resolve_round")))
    assert audits == dict.fromkeys(resolved, 1)
    results = Counter(db.session.scalars(select(RoundResult.round_id)))
    assert results == dict.fromkeys(resolved.values(), PLAYERS)
    return len(resolved)


def check_mail(sink: NetworkSink) -> int:
    """Every mail of the outbox is marked sent and reached the sink exactly once."""
    rows = dict(db.session.execute(select(OutboxMessage.message_id, OutboxMessage.status)).all())
    assert {m: s for m, s in rows.items() if s != "sent"} == {}
    received = Counter(sink.message_ids())
    assert {m: n for m, n in received.items() if n != 1} == {}
    assert set(received) == set(rows)
    return len(rows)


def check_turns(sent: list[Sent]) -> int:
    """Every turn an app host accepted (200) is stored as it was sent; the others were
    refused as late for a round being resolved (409), and stored as refused."""
    assert {(s.status, s.code) for s in sent} <= {(200, None), (409, "round_closed")}, \
        Counter((s.status, s.code) for s in sent)
    versions = {v.id: v for v in db.session.scalars(
        select(TurnVersion).where(TurnVersion.channel == "api"))}
    assert len(versions) == len(sent)
    accepted = [s for s in sent if s.status == 200]
    for s in accepted:
        version = versions.get(s.version)
        assert version is not None, f"the turn {s.text!r} accepted by {s.host} is not stored"
        assert (version.status, version.text) == ("accepted", s.text)
    assert Counter(v.status for v in versions.values()) == {
        "accepted": len(accepted), "refused": len(sent) - len(accepted)}
    assert {s.host for s in accepted} == set(APPS)
    return len(accepted)


def check_mailed(ids: list[str]) -> None:
    """Every turn mailed into the IMAP mailbox was stored once and applied."""
    rows = db.session.execute(select(InboundMessage.message_id, InboundMessage.status,
                                     TurnVersion.channel)
                              .join(TurnVersion, isouter=True)).all()
    assert Counter(m for m, _, _ in rows) == dict.fromkeys(ids, 1)
    assert {(status, channel) for _, status, channel in rows} <= {("applied", "email")}


def check_all(hosts: Hosts) -> dict[str, int]:
    """Everything once: rounds, mails, turns by API and by mail; how many of each."""
    assert hosts.players is not None
    with hosts.players.paused():
        hosts.drain()
        counts = {"rounds": check_rounds(), "mails": check_mail(hosts.sink),
                  "API turns": check_turns(hosts.players.snapshot())}
    check_mailed(hosts.mailed)
    return counts | {"mailed turns": len(hosts.mailed)}


def make_games() -> tuple[list[tuple[int, str]], list[tuple[int, str, str]]]:
    """GAMES running games of PLAYERS players: their (game, API token)s, and one
    (game, From, To) a game for turns by mail."""
    seats, mailers = [], []
    for g in range(GAMES):
        game = games.create_game(f"Hosts {g}", weekly("2999-01-10 20:00", "UTC"),
                                 Ruleset(rounds=ROUNDS, early_resolution=False))
        for p in range(PLAYERS):
            player = games.add_player(game, f"P{p}", f"p{p}.g{g}@example.org", invite=False)
            seats.append((game.id, accounts.issue_api_token(player=player)[1]))
            if p == 0:
                mailers.append((game.id, player.email, keys.reply_address(player)))
        games.start_game(game, seed=g)
    db.session.commit()
    return seats, mailers


@pytest.fixture(scope="module")
def hosts(machine_to_itself, database, tmp_path_factory):
    """The topology, running, with turns coming in through both app hosts."""
    assert database == "postgresql"
    folder = tmp_path_factory.mktemp("hosts")
    with contextlib.ExitStack() as stack:
        net = stack.enter_context(Network([*APPS, *SCHEDULERS]))
        cluster = Cluster()
        stack.callback(cluster.remove)
        cluster.trust(net.subnet)
        cluster.start(listen_addresses=f"127.0.0.1,{net.address}", **SERVER)
        sink = NetworkSink(net.address)
        sink.controller.start()
        stack.callback(sink.controller.stop)
        dovecot = stack.enter_context(NetworkDovecot(net.address))
        app = create_app({"SQLALCHEMY_DATABASE_URI": cluster.url, "SECRET_KEY": SECRET,
                          "REPLY_ADDRESS": REPLY_ADDRESS})
        stack.enter_context(app.app_context())
        stack.callback(db.engine.dispose)
        stack.callback(db.session.remove)
        upgrade()
        db.session.execute(text("CREATE EXTENSION pgrowlocks"))  # which rows a host locks
        db.session.commit()
        seats, mailers = make_games()
        topology = Hosts(net, cluster, sink, dovecot, folder)
        topology.mailers = mailers
        stack.callback(topology.close)
        for name in (*APPS, *SCHEDULERS):
            topology.spawn(name)
        for name in APPS:
            topology.wait(lambda n=name: answers(f"{topology.base(n)}/api/v1/openapi.json"),
                          f"{name} to answer", seconds=60)
        topology.players = Players({n: topology.base(n) for n in APPS}, seats)
        topology.players.thread.start()
        stack.callback(topology.players.thread.join, LIMIT)
        stack.callback(topology.players.halt.set)
        yield topology


def other_than(name: str) -> str:
    return next(n for n in SCHEDULERS if n != name)


def test_a_round_whose_resolver_is_cut_off_is_resolved_once_by_the_other_host(hosts):
    hosts.ready()
    victim = hosts.wait(hosts.mailbox_holder, "a scheduler to hold the IMAP mailbox")
    other, address = other_than(victim), hosts.net.hosts[victim].address
    # No mail on its way at the cut (the players wait until it is made, and the rounds
    # cannot end): scenario b cuts a host as it sends, at a point of its own choosing.
    with hosts.players.paused(), hosts.engine.connect() as conn:
        hosts.drain()
        conn = conn.execution_options(isolation_level="READ COMMITTED")
        with conn.begin():  # until it ends, a round's results wait to be written
            conn.execute(text("LOCK TABLE round_result IN SHARE ROW EXCLUSIVE MODE"))
            me = conn.scalar(text("SELECT pg_backend_pid()"))
            # One game's round stays open: the turns mailed during the cut go to it.
            # (A turn for a round past its deadline is refused as late until the round
            # is resolved, and applied to the next round after: either is right, but
            # which one depends on which scheduler gets there first.)
            quiet = hosts.mailers[0][0]
            due = hosts.make_due(but=quiet)
            pid = hosts.wait(lambda: hosts.scalar(
                "SELECT pid FROM pg_stat_activity WHERE host(client_addr) = :address "
                "AND :me = ANY(pg_blocking_pids(pid))", address=address, me=me),
                f"{victim} to stop at a round's results")
            hosts.net.cut(victim)
            cut = time.monotonic()
            held = [row[0] for row in hosts.rows(
                "SELECT r.id FROM pgrowlocks('round') AS l JOIN round AS r "
                "ON r.ctid = l.locked_row WHERE :pid = ANY(l.pids)", pid=pid)]
    assert len(held) == 1, f"{victim} holds rounds {held} in its transaction"
    mailed = hosts.mail_turns(2, game=quiet)  # while the mailbox's holder is cut off
    times = hosts.until({
        "held round resolved": lambda: hosts.resolved(held),
        "mailbox taken over": lambda: hosts.mailbox_holder() == other,
        "all due rounds resolved": lambda: hosts.resolved(due),
        "mailed turns processed": lambda: hosts.processed(mailed)}, since=cut)
    assert not hosts.scalar("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid", pid=pid)
    assert times["mailbox taken over"] <= MAILBOX_TAKEOVER, times
    time.sleep(max(0.0, cut + CUT - time.monotonic()))
    assert hosts.processes[victim].poll() is None
    logged = len(hosts.logs[victim].read_text())
    back = hosts.mend(victim)
    # Its IMAP watcher, which held the mailbox when cut off, lets go of that connection
    # and stands by, ready to take the mailbox over again.
    times |= hosts.until({"its IMAP watcher standing by": lambda: "standing by" in
                          hosts.logs[victim].read_text()[logged:]}, since=cut)
    hosts.settle()
    assert hosts.mailbox_holder() == other  # the host back did not take the mailbox back
    counts = check_all(hosts)
    print(f"\nhosts fail (a): {victim} cut off while resolving round {held[0]}; "
          + ", ".join(f"{what} after {t:.2f} s" for what, t in times.items())
          + f"; its link back after {back - cut:.2f} s, it reconnected and repeated "
            f"nothing: {counts}")


def test_b_a_mail_a_cut_off_sender_had_begun_goes_out_once(hosts):
    hosts.ready()
    victim = other_than(hosts.wait(hosts.mailbox_holder, "a scheduler to hold the mailbox"))
    trap = Trap(hosts.net.hosts[victim].address, DELIVERED, lambda: hosts.net.cut(victim))
    hosts.sink.trap = trap
    due = hosts.make_due()
    hosts.wait(lambda: trap.at, f"{victim} to begin its mail number {DELIVERED + 1}")
    cut = trap.at
    times = hosts.until({"all due rounds resolved": lambda: hosts.resolved(due)}, since=cut)
    # The round's mails (API turns are confirmed by mail, so more keep coming): all sent
    # but the one the cut-off host had begun.
    last = hosts.scalar("SELECT max(id) FROM outbox_message")
    unsent = "SELECT id, status FROM outbox_message WHERE id <= :last AND status <> 'sent'"
    times |= hosts.until({"the rest sent": lambda: len(hosts.rows(unsent, last=last)) <= 1},
                         since=cut)
    held = hosts.rows(unsent, last=last)
    assert [status for _, status in held] == ["sending"], held
    time.sleep(max(0.0, cut + CUT - time.monotonic()))
    assert hosts.processes[victim].poll() is None
    back = hosts.mend(victim)
    begun = "SELECT message_id, status FROM outbox_message WHERE id = :id"
    sent = poll(lambda: hosts.rows(begun, id=held[0][0])[0][1] == "sent")
    [(message_id, status)] = hosts.rows(begun, id=held[0][0])
    by = [peer for peer, m in hosts.sink.received if m == message_id]
    assert sent is not None, (
        f"{LIMIT} s after its link came back, the mail {victim} had begun is {status}; "
        f"the sink has it from {by}\n{hosts.log_tails()}")
    times["the begun mail sent"] = sent[0] - cut
    hosts.settle()
    counts = check_all(hosts)
    hosts_by_address = {h.address: name for name, h in hosts.net.hosts.items()}
    print(f"\nhosts fail (b): {victim} cut off as it began a mail; "
          + ", ".join(f"{what} after {t:.2f} s" for what, t in times.items())
          + f"; its link back after {back - cut:.2f} s; the begun mail sent by "
            f"{[hosts_by_address[peer] for peer in by]}; {counts}")


def test_c_the_mailbox_passes_to_the_other_host_within_its_lease_when_its_holder_dies(hosts):
    hosts.ready()
    holder = hosts.wait(hosts.mailbox_holder, "a scheduler to hold the IMAP mailbox")
    other = other_than(holder)
    before = hosts.mail_turns(3)
    hosts.wait(lambda: hosts.processed(before), f"{holder} to process the mailed turns")
    with hosts.players.paused():  # no mail on its way either (see the docs on STALE_CLAIM)
        hosts.drain()
        hosts.processes[holder].kill()
        killed = time.monotonic()
    after = hosts.mail_turns(3)
    times = hosts.until({"mailbox taken over": lambda: hosts.mailbox_holder() == other,
                         "mailed turns processed": lambda: hosts.processed(after)},
                        since=killed)
    assert hosts.processes[holder].wait(timeout=5) == -9
    assert times["mailbox taken over"] <= MAILBOX_TAKEOVER, times
    hosts.settle()
    counts = check_all(hosts)
    print(f"\nhosts fail (c): {holder} killed (SIGKILL) holding the IMAP mailbox; "
          + ", ".join(f"{what} after {t:.2f} s" for what, t in times.items())
          + f" (IMAP_LEASE_SECONDS={LEASE}); {counts}")
