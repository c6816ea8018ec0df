"""The real commands: ``vpsleuth scheduler`` (twice at once) and ``vpsleuth serve``."""

from __future__ import annotations

import contextlib
import json
import socket
import sqlite3
import time
import urllib.error
import urllib.request
from collections import Counter
from datetime import timedelta

import pytest
from process_support import all_sent, environment, start, stop
from smtp_sink import DATABASES, REPLY_ADDRESS, free_port
from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, OutboxMessage, ReminderSent, Round, utcnow
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import explicit
from vpsleuth.services import games, turns

POSTGRES = [d for d in DATABASES if d == "postgresql"]


def wait_until(condition, seconds: float, what: str) -> None:
    limit = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > limit:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.2)


def test_scheduler_once_runs_every_job_resolving_a_round_that_is_due(
        app, runner, sink, new_game):
    real_now = utcnow()
    game = new_game(schedule=explicit([real_now - timedelta(seconds=1)], "UTC"),
                    started_at=real_now - timedelta(hours=1))
    result = runner.invoke(args=["scheduler", "--once"])
    assert result.exit_code == 0, result.output
    assert f"resolve-due-rounds: [({game.id}, 1)]" in result.output
    assert "poll-imap: None" in result.output
    db.session.expire_all()
    assert game.round(1).state == "resolved"
    assert {m["Subject"] for m in sink.to("ada@example.org")} >= {"Winter: report of round 1"}


@pytest.mark.parametrize("app", POSTGRES, indirect=True)
def test_two_schedulers_on_one_database_resolve_each_round_and_send_each_mail_once(
        app, sink, tmp_path):
    real_now = utcnow()
    # A deadline every 3 s for 3 minutes: whenever a round is resolved, the next
    # one is due at most 3 s later, however slowly the processes start on a busy
    # machine, and one round at least lasts long enough for reminders (4 h before).
    deadlines = [real_now + timedelta(seconds=s) for s in range(4, 180, 3)]
    for n in range(4):
        game = games.create_game(f"Race {n}", explicit(deadlines, "UTC"), Ruleset(rounds=3))
        for name in ("Ada", "Bob", "Cyd"):
            games.add_player(game, name, f"{name.lower()}{n}@example.org", now=real_now)
        games.start_game(game, now=real_now, seed=n)
        turns.submit_turn(game.players[0], "QUESTION A red\nTIP A RD1", channel="cli")
    env = environment(SQLALCHEMY_DATABASE_URI=app.config["SQLALCHEMY_DATABASE_URI"],
                      SECRET_KEY=app.config["SECRET_KEY"], MAIL_SERVER="127.0.0.1",
                      MAIL_PORT=sink.port, REPLY_ADDRESS=REPLY_ADDRESS,
                      MAIL_DEFAULT_SENDER=f"VP-Sleuth <{REPLY_ADDRESS}>",
                      SCHEDULER_TICK_SECONDS="0.25")
    schedulers = [start(["scheduler"], env, tmp_path / f"scheduler{i}.log") for i in (1, 2)]
    try:
        wait_until(all_sent, 150, "both schedulers to finish the games and send every mail")
        time.sleep(1)  # a few more ticks of both: nothing more may happen
        assert [p.poll() for p in schedulers] == [None, None]
    finally:
        codes = [stop(p) for p in schedulers]
    logs = [(tmp_path / f"scheduler{i}.log").read_text() for i in (1, 2)]
    assert codes == [0, 0], logs
    assert not [log for log in logs if "Traceback" in log], logs
    # On PostgreSQL neither waits for the other (on SQLite one would: test_schedulers_divide).
    assert not [log for log in logs if "waits" in log], logs

    db.session.rollback()
    resolutions = Counter(json.loads(e.detail)["round"] for e in db.session.scalars(
        select(AuditEntry).where(AuditEntry.action == "resolve_round")))
    assert resolutions == {1: 4, 2: 4, 3: 4}
    assert db.session.scalar(select(func.count()).select_from(Round)) == 12
    rows = db.session.scalars(select(OutboxMessage)).all()
    assert {r.status for r in rows} == {"sent"}
    received = Counter(sink.message_ids())
    assert set(received) == {r.message_id for r in rows}
    assert set(received.values()) == {1}
    reminders = db.session.scalar(select(func.count()).select_from(ReminderSent))
    assert reminders == len([r for r in rows if r.kind == "reminder"]) > 0
    assert len([r for r in rows if r.kind == "final_report"]) == 12


def test_serve_runs_the_web_app_and_the_scheduler_on_a_fresh_embedded_database(tmp_path):
    port = free_port()
    database = tmp_path / "fresh.db"
    env = environment(SQLALCHEMY_DATABASE_URI=f"sqlite:///{database}", SECRET_KEY="serve-test",
                      SCHEDULER_TICK_SECONDS="0.25")
    server = start(["serve", "--port", str(port)], env, tmp_path / "serve.log")
    health: dict = {}
    try:
        def healthy() -> bool:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    health.update(json.load(r))
                    return True
            except (urllib.error.URLError, ConnectionError):
                return False
        wait_until(healthy, 60, "vpsleuth serve to answer /healthz with a recent heartbeat")
    finally:
        code = stop(server)
    log = (tmp_path / "serve.log").read_text()
    assert health["database"] == "ok" and health["scheduler"] == "ok"
    assert code == 0, log
    assert f"Serving on http://127.0.0.1:{port} (with the scheduler)" in log
    assert log.rstrip().endswith("Stopped.")



def test_serve_on_a_port_in_use_says_so_and_starts_nothing(tmp_path):
    env = environment(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'busy.db'}",
                      SECRET_KEY="serve-test")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        server = start(["serve", "--port", str(port)], env, tmp_path / "serve.log")
        code = server.wait(timeout=60)
    log = (tmp_path / "serve.log").read_text()
    assert code == 1, log
    assert f"Error: cannot listen on 127.0.0.1:{port}: Address already in use" in log
    assert "Serving on" not in log and "Traceback" not in log


def test_a_second_scheduler_on_sqlite_says_it_waits_and_takes_over_when_the_first_stops(
        tmp_path):
    database = tmp_path / "one.db"
    env = environment(SQLALCHEMY_DATABASE_URI=f"sqlite:///{database}", SECRET_KEY="sole-test",
                      SCHEDULER_TICK_SECONDS="0.25")
    logs = [tmp_path / "first.log", tmp_path / "second.log"]

    def holder() -> str:
        if not database.exists():
            return ""
        with contextlib.closing(sqlite3.connect(database, timeout=5)) as conn:
            try:
                row = conn.execute("SELECT value FROM scheduler_state "
                                   "WHERE name = 'sqlite-scheduler'").fetchone()
            except sqlite3.OperationalError:  # no schema yet
                return ""
        return row[0] if row else ""

    first = start(["scheduler"], env, logs[0])
    second = None
    try:
        wait_until(lambda: f":{first.pid}:" in holder(), 60, "the first scheduler's lease")
        second = start(["scheduler"], env, logs[1])
        wait_until(lambda: "waits" in logs[1].read_text(), 60, "the second to say it waits")
        assert f":{first.pid}:" in holder()  # the first one still works alone
        assert stop(first) == 0
        wait_until(lambda: f":{second.pid}:" in holder(), 30, "the second to take over")
        assert "takes over" in logs[1].read_text()
    finally:
        codes = [stop(p) for p in (first, second) if p is not None]
    assert codes == [0, 0], [log.read_text() for log in logs]
    assert "waits" not in logs[0].read_text()
    assert holder() == ""  # the second gave it back on the way out
