"""The primary database fails, its synchronous standby is promoted: nothing answered is lost.

The test makes a primary cluster and a synchronous standby of it
(``pg_basebackup -R``; tests/pg_cluster.py), each in a folder of its own on a
port of its own. The service, ``vpsleuth serve`` (the JSON API) and ``vpsleuth
mail smtpd`` (mail), runs in processes of its own on a multi-host URL
(``host=...&host=...&target_session_attrs=read-write``), as docs/deployment.md
gives it. Two players send whole turns continuously, one by the API, one by
mail. The primary is killed (``pg_ctl stop -m immediate``), and once each
entrance has answered that the database is away the standby is promoted
(``pg_ctl promote``), while the turns keep coming.

On the new primary: every turn answered 200 or 250 is there and applied
exactly once, also those answered in the last moment before the kill (a
commit returns only once the standby has the log); no turn is applied twice.
A turn whose request died with the primary (answered 503 or 451) may be
stored but is never applied; a mail answered 250 whose turn the kill left
unapplied waits for ``vpsleuth mail reprocess``, which the test runs as a GM
would. During the gap the API answers 503 with Retry-After and the SMTP
receiver 451 (the sending MTA retries); the same processes answer again once
the standby is promoted, without a restart. The time from the kill to each
entrance's first acknowledgement afterwards is printed.
"""

from __future__ import annotations

import json
import random
import smtplib
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path

import pytest
from flask_migrate import upgrade
from own_app import own_app
from pg_cluster import Cluster, free_port
from process_support import environment, start, stop, wait_for
from sqlalchemy import select, text

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound import pipeline
from vpsleuth.models import InboundMessage, Player, TurnVersion
from vpsleuth.orders import parse_turn
from vpsleuth.rules import ATTRIBUTES, GEMS, LOCATIONS, PLACEHOLDERS
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games, standing_turns

STANDBY = "standby1"  # the application_name it streams under: synchronous_standby_names
SECRET = "failover-test"  # the same in every process: the mail's reply key is signed with it
ACKNOWLEDGED = {"api": 200, "smtp": 250}
BEFORE, AFTER = 8, 5  # turns each entrance has acknowledged before the kill, and after
LIMIT = 30  # seconds any one phase may take
AGAIN = 10  # seconds from the promotion to each entrance's next acknowledgement, at most
PAUSE = 0.03  # between two turns of one sender


@dataclass(frozen=True)
class Sent:
    """One turn sent, and what the entrance answered."""

    channel: str
    marker: str  # a comment line that makes the turn's text unique
    text: str
    status: int  # HTTP or SMTP code; 0: no answer at all
    sent_at: float  # time.monotonic()
    answered_at: float
    detail: str  # the answer's body (API) or text (SMTP), Retry-After on a 503


def multi_host_url(*clusters: Cluster) -> str:
    hosts = "&".join(f"host=127.0.0.1:{c.port}" for c in clusters)
    return (f"postgresql+psycopg://postgres@/postgres?{hosts}"
            "&target_session_attrs=read-write&connect_timeout=5")


def whole_turn(rng: random.Random, marker: str) -> str:
    """A turn that replaces everything standing, made unique by its last line."""
    question = f"QUESTION {rng.choice(PLACEHOLDERS)} {rng.choice(ATTRIBUTES).word('en')}"
    tips = ", ".join(f"{rng.choice(LOCATIONS)} {g.code}" for g in rng.sample(GEMS, 4))
    return f"DROP ALL\n{question}\nTIP {tips}\n{marker}"


class Senders:
    """The two players at work: each sends a turn, waits for its answer, sends the next."""

    def __init__(self, api: str, token: str, game_id: int, smtp_port: int,
                 mail_from: str, reply_to: str) -> None:
        self.api, self.token, self.game_id = api, token, game_id
        self.smtp_port, self.mail_from, self.reply_to = smtp_port, mail_from, reply_to
        self.sent: list[Sent] = []
        self.errors: list[BaseException] = []
        self.lock = threading.Lock()
        self.halt = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(c,), daemon=True)
                        for c in ACKNOWLEDGED]

    def __enter__(self) -> Senders:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.halt.set()
        for thread in self.threads:
            thread.join(timeout=LIMIT)

    def _run(self, channel: str) -> None:
        rng, send = random.Random(channel), getattr(self, f"_send_{channel}")
        limit = time.monotonic() + 4 * LIMIT
        try:
            for number in range(5000):
                if self.halt.is_set() or time.monotonic() > limit:
                    return
                marker = f"# failover {channel} {number}"
                turn = whole_turn(rng, marker)
                sent_at = time.monotonic()
                status, detail = send(turn)
                with self.lock:
                    self.sent.append(Sent(channel, marker, turn, status, sent_at,
                                          time.monotonic(), detail))
                time.sleep(PAUSE)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(exc)

    def _send_api(self, turn: str) -> tuple[int, str]:
        request = urllib.request.Request(
            f"{self.api}/api/v1/games/{self.game_id}/turn", method="PUT",
            data=json.dumps({"text": turn}).encode(),
            headers={"Authorization": f"Bearer {self.token}",
                     "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=LIMIT) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, f"{error.read().decode()} Retry-After: " \
                                   f"{error.headers.get('Retry-After')}"
        except OSError as exc:  # no answer at all: counted as such by the test
            return 0, repr(exc)

    def _send_smtp(self, turn: str) -> tuple[int, str]:
        msg = EmailMessage()
        msg["From"] = f"Ben <{self.mail_from}>"
        msg["To"] = self.reply_to
        msg["Subject"] = "Re: my turn"
        msg["Date"] = formatdate()
        msg["Message-ID"] = make_msgid(domain="example.org")
        msg.set_content(turn)
        try:
            with smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=LIMIT) as smtp:
                smtp.ehlo()
                assert smtp.mail(self.mail_from)[0] == smtp.rcpt(self.reply_to)[0] == 250
                code, answer = smtp.data(msg.as_bytes())
                return code, f"{answer.decode()} Message-ID: {msg['Message-ID']}"
        except (OSError, smtplib.SMTPException) as exc:
            return 0, repr(exc)

    def answers(self, channel: str, *, after: float = 0.0, status: int | None = None
                ) -> list[Sent]:
        """What ``channel`` was answered after ``after``, only ``status`` if given."""
        with self.lock:
            return [s for s in self.sent if s.channel == channel and s.answered_at > after
                    and (status is None or s.status == status)]

    def wait(self, what: str, condition) -> None:
        limit = time.monotonic() + LIMIT
        while not condition():
            assert not self.errors, self.errors
            if time.monotonic() > limit:
                raise AssertionError(f"gave up waiting for {what} after {LIMIT} s: "
                                     f"{Counter((s.channel, s.status) for s in self.sent)}; "
                                     f"last: {self.sent[-2:]}")
            time.sleep(0.02)


@pytest.fixture
def clusters():
    """A primary, and a synchronous standby of it: a commit waits until the standby has it.

    synchronous_standby_names is on the primary's command line alone: in its
    configuration file, the base backup would copy it to the standby, and once
    promoted the standby would wait, with every commit, for a standby of its own.
    """
    primary = Cluster()
    standby = None
    try:
        primary.start(synchronous_standby_names=STANDBY)
        standby = Cluster(standby_of=primary, name=STANDBY)
        standby.start()
        primary.wait_for_standby(STANDBY, "sync", LIMIT)
        yield primary, standby
    finally:
        if standby is not None:
            standby.remove()
        primary.remove()


@pytest.fixture
def app(clusters):
    with own_app({"SQLALCHEMY_DATABASE_URI": multi_host_url(*clusters),
                  "SECRET_KEY": SECRET}) as app:
        yield app


def test_a_promoted_standby_has_every_acknowledged_turn_and_the_service_answers_again(
        app, clusters, tmp_path):
    primary, standby = clusters
    upgrade()
    game = games.create_game("Failover", weekly("2999-01-10 20:00", "UTC"))
    ada = games.add_player(game, "Ada", "ada@example.org", invite=False)
    ben = games.add_player(game, "Ben", "ben@example.org", invite=False)
    games.start_game(game, seed=23)
    token = accounts.issue_api_token(player=ada)[1]
    ids = {"game": game.id, "ada": ada.id}
    reply_to, mail_from = keys.reply_address(ben), ben.email
    db.session.commit()

    env = environment(SQLALCHEMY_DATABASE_URI=app.config["SQLALCHEMY_DATABASE_URI"],
                      SECRET_KEY=SECRET, INBOUND_PER_SENDER_PER_HOUR=100000)
    http_port, smtp_port = free_port(), free_port()
    logs = {"serve": tmp_path / "serve.log", "smtpd": tmp_path / "smtpd.log"}
    processes = {}
    try:
        processes["serve"] = start(["serve", "--no-scheduler", "--port", str(http_port)],
                                   env, logs["serve"])
        processes["smtpd"] = start(["mail", "smtpd", "--port", str(smtp_port)], env,
                                   logs["smtpd"])
        base = f"http://127.0.0.1:{http_port}"
        wait_for(f"{base}/api/v1/openapi.json", processes["serve"], logs["serve"])
        wait_for_smtp(smtp_port, processes["smtpd"], logs["smtpd"])
        with Senders(base, token, ids["game"], smtp_port, mail_from, reply_to) as senders:
            timings = fail_over(senders, primary, standby)
        alive = {name: p.poll() for name, p in processes.items()}
    finally:
        codes = {name: stop(p) for name, p in processes.items()}
    output = {name: log.read_text() for name, log in logs.items()}
    assert alive == {"serve": None, "smtpd": None}, output  # never restarted
    assert codes == {"serve": 0, "smtpd": 0}, output
    assert not senders.errors, senders.errors

    print(f"\nfailover: primary killed, standby promoted {timings['promoted']:.2f} s later; "
          f"first turn acknowledged again after {timings['api']:.2f} s (API), "
          f"{timings['smtp']:.2f} s (SMTP); {len(senders.sent)} turns sent: "
          f"{dict(Counter((s.channel, s.status) for s in senders.sent))}")
    # The same processes answer again as soon as the standby takes writes (their pools
    # ping each connection before use and connect anew to whichever host takes writes).
    assert max(timings["api"], timings["smtp"]) - timings["promoted"] < AGAIN, timings
    check_answers(senders.sent)
    db.engine.dispose()  # the test's own connections went to the old primary
    assert db.session.scalar(text("SELECT inet_server_port()")) == standby.port
    assert db.session.scalar(text("SELECT pg_is_in_recovery()")) is False
    stranded = check_turns(senders.sent, ids)
    print(f"mails stored but not applied at the failure, reprocessed: {len(stranded)}")


def wait_for_smtp(port: int, process, log: Path) -> None:
    limit = time.monotonic() + LIMIT
    while time.monotonic() < limit:
        assert process.poll() is None, log.read_text()
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=5) as smtp:
                smtp.noop()
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the SMTP receiver does not answer:\n{log.read_text()}")


def fail_over(senders: Senders, primary: Cluster, standby: Cluster) -> dict[str, float]:
    """Kill the primary while turns come in, promote the standby; the times it took."""
    def acknowledged(after: float = 0.0, least: int = 1) -> bool:
        return all(len(senders.answers(c, after=after, status=s)) >= least
                   for c, s in ACKNOWLEDGED.items())

    senders.wait(f"{BEFORE} turns acknowledged by each entrance",
                 lambda: acknowledged(least=BEFORE))
    primary.stop("immediate")  # SIGQUIT to every server process: no shut-down, no checkpoint
    killed = time.monotonic()  # measured from here: pg_ctl waited until the primary was gone
    # The gap: no database takes writes until the standby is promoted.
    senders.wait("each entrance to answer that the database is away", lambda: all(
        any(s.status != ok for s in senders.answers(c, after=killed) if s.sent_at > killed)
        for c, ok in ACKNOWLEDGED.items()))
    standby.promote()
    promoted = time.monotonic()
    senders.wait(f"{AFTER} turns acknowledged by each entrance after the promotion",
                 lambda: acknowledged(after=promoted, least=AFTER))
    first = {c: min(s.answered_at for s in senders.answers(c, after=killed, status=ok)
                    if s.sent_at > killed) for c, ok in ACKNOWLEDGED.items()}
    return {"promoted": promoted - killed, **{c: t - killed for c, t in first.items()}}


def check_answers(sent: list[Sent]) -> None:
    """Every turn got an answer: acknowledged, or refused for now as a database away is."""
    assert Counter(s.status for s in sent if s.channel == "api").keys() <= {200, 503}, sent
    assert Counter(s.status for s in sent if s.channel == "smtp").keys() <= {250, 451}, sent
    for s in sent:
        if s.status == 503:
            assert '"code":"unavailable"' in s.detail.replace(" ", ""), s.detail
            assert s.detail.endswith("Retry-After: 30"), s.detail
            assert "Traceback" not in s.detail and "psycopg" not in s.detail
        if s.status == 451:
            assert "try again later" in s.detail, s.detail


def check_turns(sent: list[Sent], ids: dict[str, int]) -> list[int]:
    """On the new primary: each acknowledged turn stored and applied once, none twice.

    A mail answered 250 is stored (that is what 250 says). If the primary died
    after that but before its turn was applied, the message waits as
    "received" for ``vpsleuth mail reprocess`` (docs/mail-inbound.md), which
    this does as the GM would: then it is applied, once. Returns the ids of
    the messages it reprocessed.
    """
    mails = {s.detail.rsplit("Message-ID: ", 1)[1]: s for s in sent
             if s.channel == "smtp" and s.status == 250}
    rows = {row.message_id: row for row in db.session.scalars(select(InboundMessage))}
    assert set(mails) <= set(rows), "a mail answered 250 is lost"
    stranded = [rows[m].id for m in mails if rows[m].status in ("received", "failed")]
    for row_id in stranded:
        assert pipeline.reprocess(row_id).status == "applied"
    versions: dict[str, list[TurnVersion]] = {}
    for version in db.session.scalars(select(TurnVersion).where(
            TurnVersion.game_id == ids["game"])):
        versions.setdefault(version.text.rstrip().rsplit("\n", 1)[-1], []).append(version)
    assert set(versions) <= {s.marker for s in sent}
    # Applied at most once each; beside it at most one version stored but never applied
    # (its request died between storing and applying, or its mail was reprocessed).
    statuses = {marker: Counter(v.status for v in found) for marker, found in versions.items()}
    assert {m: c for m, c in statuses.items() if c["accepted"] > 1} == {}
    assert {m: c for m, c in statuses.items()
            if set(c) - {"accepted", "received"} or c["received"] > 1} == {}
    for s in sent:
        if s.status != ACKNOWLEDGED[s.channel]:
            continue  # refused for now, or its answer lost with the primary: checked above
        [version] = [v for v in versions.get(s.marker, []) if v.status == "accepted"] or [None]
        assert version is not None, f"{s.channel} turn {s.marker!r} was acknowledged but is lost"
        assert version.text.rstrip() == s.text.rstrip()
        if s.channel == "api":
            assert json.loads(s.detail)["version"]["id"] == version.id
    for message_id, s in mails.items():
        row = rows[message_id]
        db.session.refresh(row)
        assert (row.status, row.turn_version_id) == (
            "applied", [v for v in versions[s.marker] if v.status == "accepted"][0].id)
    # The API player's turns were sent one after the other: the last acknowledged stands.
    ada = db.session.get(Player, ids["ada"])
    last = [s for s in sent if s.channel == "api" and s.status == 200][-1]
    standing = standing_turns.standing_turn(ada.game.open_round, ada)
    change = parse_turn(last.text).change
    assert (standing.question, dict(standing.tips)) == (change.question, change.tips)
    return stranded
