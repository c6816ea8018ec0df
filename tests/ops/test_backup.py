"""Backups that restore: ``vpsleuth backup`` while the service runs, ``vpsleuth restore``
into a fresh database, every game re-verified, the outbox resumed without resending.

The running instance is ``vpsleuth serve`` (waitress and the scheduler, mailing to the
SMTP sink) on the test database; players send turns through the API from a thread
while the real ``vpsleuth backup`` runs in a process of its own. On PostgreSQL the
commands docs/deployment.md gives for doing it by hand run too: pg_dump and
pg_restore, and WAL archiving with a base backup and a recovery to the end of the
archive, on a cluster of the test's own.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
import urllib.request
import uuid
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from old_rows import old_game
from own_app import own_app
from process_support import command, environment, start, stop, wait_for
from smtp_sink import DATABASES, REPLY_ADDRESS, free_port, mail_config
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url
from wal_archive import ArchivingCluster

from vpsleuth.extensions import db
from vpsleuth.mail import outbox
from vpsleuth.models import Game, OutboxMessage, TurnVersion, utcnow
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import explicit
from vpsleuth.services import accounts, backup, games, resolution, turns

POSTGRES = [d for d in DATABASES if d == "postgresql"]
TURNS = ("QUESTION A red\nTIP B RD1", "QUESTION C opal\nTIP X YO3",
         "QUESTION E pair\nTIP A GP2, D BD1", "QUESTION G blue diamond\nDROP ALL")
REVERIFIED = "OK: the commitment and all {} resolved rounds agree."


@pytest.fixture(params=DATABASES)
def live(request, app_on, sink):
    """The test database of one kind, its app mailing to the sink."""
    with app_on(request.param, **mail_config(sink.port)) as app:
        yield app


@pytest.fixture
def fresh(tmp_path):
    """``fresh(app)``: a new, empty database of ``app``'s kind (a file; or a database on
    the same PostgreSQL server, dropped at the end)."""
    made: list = []  # (a URL of the server, the name of a database made on it)

    def make(app) -> str:
        url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
        if url.get_backend_name() == "sqlite":
            return f"sqlite:///{tmp_path / f'fresh-{uuid.uuid4().hex[:8]}.db'}"
        name = f"vpsleuth_restore_{uuid.uuid4().hex[:10]}"
        admin(url, f'CREATE DATABASE "{name}"')
        made.append((url, name))
        return url.set(database=name).render_as_string(hide_password=False)

    yield make
    for url, name in made:
        admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def admin(url, statement: str) -> None:
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(statement))
    finally:
        engine.dispose()


def app_at(url: str, sink):
    """An app of its own on ``url``, mailing to the sink, in its app context."""
    return own_app({"SQLALCHEMY_DATABASE_URI": url, **mail_config(sink.port)})


def cli(app, *args: str):
    """``vpsleuth ARGS`` through click's runner, on ``app`` (its context pushed: a command
    runs on whichever app's context is current)."""
    with app.app_context():
        return app.test_cli_runner().invoke(args=list(args))


def count(model, *where) -> int:
    db.session.rollback()  # read afresh: other processes write
    return db.session.scalar(select(func.count()).select_from(model).where(*where))


def applied() -> int:
    """Turn versions applied: each queued its confirmation in the same transaction (a
    version is stored, and committed, before it is applied)."""
    return count(TurnVersion, TurnVersion.status == "accepted")


def mails_by_status() -> dict[str, set[str]]:
    db.session.rollback()
    found: dict[str, set[str]] = {}
    for status, message_id in db.session.execute(
            select(OutboxMessage.status, OutboxMessage.message_id)):
        found.setdefault(status, set()).add(message_id)
    return found


def wait_until(condition, seconds: float, what: str) -> None:
    limit = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < limit, f"gave up waiting for {what}"
        time.sleep(0.1)


def games_in_progress(names=("Amber", "Basalt")) -> dict[int, list[str]]:
    """Games in round 3 (two resolved), three players each: each game's players' API tokens."""
    real_now = utcnow()
    deadlines = [real_now + timedelta(days=7 * n) for n in range(1, 7)]
    tokens = {}
    for seed, name in enumerate(names):
        game = games.create_game(name, explicit(deadlines, "UTC"), Ruleset(rounds=6))
        players = [games.add_player(game, who, f"{who.lower()}.{name.lower()}@example.org")
                   for who in ("Ada", "Ben", "Cy")]
        games.start_game(game, seed=seed)
        for number in (1, 2):
            for i, player in enumerate(players):
                turns.submit_turn(player, TURNS[(i + number) % len(TURNS)], channel="web")
            resolution.resolve_round(game, number=number)
        tokens[game.id] = [accounts.issue_api_token(player=p)[1] for p in players]
    return tokens


def claimed_by_a_hung_sender() -> str:
    """A mail a sender claimed and never finished (it hangs, or died): left 'sending'."""
    row = db.session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).first()
    row.status, row.claimed_at = "sending", utcnow()
    db.session.commit()
    return row.message_id


class Players(threading.Thread):
    """Players sending turns through the API, one after another, until halted."""

    def __init__(self, base: str, tokens: dict[int, list[str]]) -> None:
        super().__init__(daemon=True)
        self.base, self.halt = base, threading.Event()
        self.seats = [(game, token) for game, seats in tokens.items() for token in seats]
        self.accepted, self.failures = 0, []

    def run(self) -> None:
        limit = time.monotonic() + 90
        for n in range(3000):
            if self.halt.is_set() or time.monotonic() > limit:
                return
            game, token = self.seats[n % len(self.seats)]
            request = urllib.request.Request(
                f"{self.base}/api/v1/games/{game}/turn", method="POST",
                data=json.dumps({"text": TURNS[n % len(TURNS)]}).encode(),
                headers={"Authorization": f"Bearer {token}",
                         "Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    answer.read()
            except OSError as exc:
                self.failures.append(repr(exc))
                return
            self.accepted += 1
            self.halt.wait(0.05)  # a lively game, not a flood: the machine runs other tests

    def wait_for(self, accepted: int) -> None:
        wait_until(lambda: self.accepted >= accepted or self.failures or not self.is_alive(),
                   60, f"{accepted} turns through the API")
        assert not self.failures and self.accepted >= accepted, self.failures


def serving(app, sink) -> dict[str, str]:
    """The environment of ``vpsleuth`` processes on ``app``'s database, mailing to the sink."""
    return environment(SQLALCHEMY_DATABASE_URI=app.config["SQLALCHEMY_DATABASE_URI"],
                       SECRET_KEY=app.config["SECRET_KEY"], SCHEDULER_TICK_SECONDS="0.25",
                       MAIL_SERVER="127.0.0.1", MAIL_PORT=sink.port, MAIL_TIMEOUT=5,
                       REPLY_ADDRESS=REPLY_ADDRESS, BASE_URL="https://sleuth.test",
                       MAIL_DEFAULT_SENDER=f"VP-Sleuth <{REPLY_ADDRESS}>")


def libpq(url: str) -> str:
    """A database URL as docs/deployment.md writes it for pg_dump and pg_restore."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def by_hand_dump(app, path: Path) -> subprocess.CompletedProcess:
    """The pg_dump line of docs/deployment.md, word for word but the file and database."""
    return subprocess.run([backup.find_program("pg_dump"), "--format=custom", f"--file={path}",
                           libpq(app.config["SQLALCHEMY_DATABASE_URI"])],
                          capture_output=True, text=True, timeout=120)


def by_hand_restore(path: Path, url: str) -> None:
    """The pg_restore line of docs/deployment.md, into an empty database."""
    subprocess.run([backup.find_program("pg_restore"), "--no-owner", "--no-privileges",
                    "--single-transaction", f"--dbname={libpq(url)}", str(path)],
                   check=True, capture_output=True, timeout=120)


@pytest.mark.live_db
def test_a_backup_taken_while_turns_and_mails_flow_restores_and_every_game_reverifies(
        live, sink, fresh, tmp_path):
    postgres = live.config["DATABASE_KIND"] == "postgresql"
    tokens = games_in_progress()
    stuck = claimed_by_a_hung_sender()
    env, port, log = serving(live, sink), free_port(), tmp_path / "serve.log"
    copy, hand = tmp_path / "vpsleuth.backup", tmp_path / "by-hand.dump"
    server = start(["serve", "--port", str(port)], env, log)
    players = Players(f"http://127.0.0.1:{port}", tokens)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", server, log)
        wait_until(lambda: count(OutboxMessage, OutboxMessage.status == "pending") == 0, 60,
                   "the scheduler to send the mails of the games so far")
        players.start()
        players.wait_for(4)
        versions_before, accepted_before = count(TurnVersion), players.accepted
        made = subprocess.run(command() + ["backup", str(copy)], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        dumped = by_hand_dump(live, hand) if postgres else None
        versions_after, accepted_after = count(TurnVersion), players.accepted
        players.wait_for(accepted_after + 3)
        players.halt.set()
        players.join(timeout=60)
        wait_until(lambda: count(OutboxMessage, OutboxMessage.status == "pending") == 0, 60,
                   "the scheduler to send every confirmation")
    finally:
        players.halt.set()
        if players.ident is not None:
            players.join(timeout=60)
        code = stop(server)
    assert code == 0 and "Traceback" not in log.read_text(), log.read_text()
    assert made.returncode == 0, made.stderr
    assert re.fullmatch(r"Wrote \S+: [\d.]+ [kM]B, 2 games \(schema \w+\), taken [\d: -]+ UTC "
                        r"in [\d.]+ s\.\n", made.stdout), made.stdout
    assert accepted_after > accepted_before, "turns went in while the command ran"
    assert not players.failures, players.failures
    assert dumped is None or dumped.returncode == 0, dumped.stderr
    live_versions = count(TurnVersion)
    assert applied() == count(OutboxMessage, OutboxMessage.kind == "confirmation")
    received = Counter(sink.message_ids())

    with app_at(fresh(live), sink) as restored:
        done = cli(restored, "restore", str(copy))
        assert done.exit_code == 0, done.output
        assert "Restored" in done.output and ": 2 games, schema " in done.output
        # The hung sender's claim, and any a sender of the service held at that moment.
        claims = re.search(r"Being sent at the backup, now due again: (\d+) mails? "
                           r"\(same Message-ID\), 0 notices\.", done.output)
        assert claims and int(claims.group(1)) >= 1, done.output
        for game_id in tokens:
            check = cli(restored, "game", "reverify", str(game_id))
            assert check.exit_code == 0 and REVERIFIED.format(2) in check.output, check.output
        # One snapshot, taken within the command's time: each turn applied with the
        # confirmation its transaction queued.
        assert versions_before <= count(TurnVersion) <= versions_after < live_versions
        assert applied() == count(OutboxMessage, OutboxMessage.kind == "confirmation")
        mails = mails_by_status()
        assert set(mails) <= {"sent", "pending"} and stuck in mails["pending"]
        assert mails["sent"] and mails["sent"] <= set(received) and stuck not in received
        mark = len(sink.messages)
        sent = cli(restored, "mail", "send")
        assert sent.exit_code == 0, sent.output
        again = Counter(sink.message_ids()[mark:])
        # What was sent before the backup never goes again; what was pending (or being
        # sent) goes once, with its Message-ID.
        assert set(again) == mails["pending"] and set(again.values()) == {1}
        assert set(mails_by_status()) == {"sent"}

    if postgres:
        url = fresh(live)
        by_hand_restore(hand, url)
        with app_at(url, sink) as restored:
            assert cli(restored, "db", "upgrade").exit_code == 0
            for game_id in tokens:
                check = cli(restored, "game", "reverify", str(game_id))
                assert check.exit_code == 0 and REVERIFIED.format(2) in check.output
            # By hand no claim is given back: the stuck mail goes after the stale-claim time.
            assert stuck in mails_by_status()["sending"]
            mark = len(sink.messages)
            outbox.send_due()
            assert stuck not in sink.message_ids()[mark:]
            outbox.send_due(now=utcnow() + outbox.STALE_CLAIM + timedelta(seconds=1))
            assert Counter(sink.message_ids()[mark:])[stuck] == 1


def test_an_older_backup_restores_into_this_version_and_a_database_with_games_is_kept(
        live, sink, fresh, tmp_path):
    postgres = live.config["DATABASE_KIND"] == "postgresql"
    copy, newer = tmp_path / "old.backup", tmp_path / "newer.backup"
    with app_at(fresh(live), sink) as old:
        config = old.extensions["migrate"].migrate.get_config()
        history = [r.revision for r in ScriptDirectory.from_config(config).walk_revisions()]
        head, older = history[0], history[2]
        assert cli(old, "db", "upgrade", older).exit_code == 0
        db.session.execute(text(old_game("Old", "setup")))
        db.session.commit()
        first = cli(old, "backup", str(copy))
        assert first.exit_code == 0 and f"1 game (schema {older})" in first.output, first.output
        again = cli(old, "backup", str(copy))
        assert again.exit_code == 1
        assert f"Error: {copy} exists already: choose another name, or add --force" in again.output
        assert cli(old, "backup", "--force", str(copy)).exit_code == 0
        db.session.execute(text("UPDATE alembic_version SET version_num = 'f0000000later'"))
        db.session.commit()
        assert cli(old, "backup", str(newer)).exit_code == 0

    games.create_game("Running", explicit([utcnow() + timedelta(days=7)], "UTC"))
    refused = cli(live, "restore", str(copy))
    assert refused.exit_code == 1
    assert ("Error: the configured database has 1 game already: restore into an empty "
            "database, or add --force") in refused.output
    assert [g.name for g in db.session.scalars(select(Game))] == ["Running"]

    with app_at(fresh(live), sink) as restored:
        assert cli(restored, "db", "upgrade").exit_code == 0  # a schema, no games: empty
        done = cli(restored, "restore", str(copy))
        assert done.exit_code == 0, done.output
        assert f"1 game, schema upgraded from {older} to {head}" in done.output
        assert cli(restored, "restore", str(copy)).exit_code == 1
        forced = cli(restored, "restore", "--force", str(copy))
        assert forced.exit_code == 0 and f"upgraded from {older} to {head}" in forced.output
        assert db.session.scalar(text("SELECT version_num FROM alembic_version")) == head
        assert [g.name for g in db.session.scalars(select(Game))] == ["Old"]
        junk = tmp_path / "junk.backup"
        junk.write_text("not a backup")
        foreign = cli(restored, "restore", "--force", str(junk))
        assert foreign.exit_code == 1
        assert ("is not a pg_dump archive" if postgres else "cannot be read as an SQLite "
                "database: file is not a database") in foreign.output
        later = cli(restored, "restore", "--force", str(newer))
        assert later.exit_code == 1
        assert (f"{newer} was made by a newer vpsleuth (schema revision f0000000later is "
                "unknown to this one)") in later.output
        assert [g.name for g in db.session.scalars(select(Game))] == ["Old"]


def test_a_database_in_memory_is_not_backed_up(sink, tmp_path):
    with app_at("sqlite://", sink) as app:
        done = cli(app, "backup", str(tmp_path / "x.backup"))
    assert done.exit_code == 1 and "the database is in memory" in done.output
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("live", POSTGRES, indirect=True)
def test_without_pg_dump_the_command_says_what_to_run(live, tmp_path, monkeypatch):
    monkeypatch.setattr(backup, "find_program", lambda name: None)
    done = cli(live, "backup", str(tmp_path / "x.dump"))
    assert done.exit_code == 1
    wanted = (f"pg_dump --format=custom --file={tmp_path / 'x.dump'} "
              f"{libpq(live.config['SQLALCHEMY_DATABASE_URI'])}")
    assert done.output.rstrip().endswith(wanted), done.output


@pytest.mark.parametrize("kind", POSTGRES)
def test_wal_archiving_and_a_base_backup_recover_to_the_end_of_the_archive(kind, sink):
    cluster = ArchivingCluster()
    try:
        cluster.archive_wal()
        cluster.start(cluster.data)
        admin(cluster.url("postgres"), "CREATE DATABASE vpsleuth")
        with app_at(cluster.url("vpsleuth"), sink) as app:
            assert cli(app, "db", "upgrade").exit_code == 0
            before = games_in_progress(["Before"])
            cluster.base_backup()
            after = games_in_progress(["After"])
            versions = count(TurnVersion)
        cluster.switch_wal()
        cluster.stop(cluster.data)  # the server is lost; the base backup and archive remain
        cluster.recover()
        with app_at(cluster.url("vpsleuth"), sink) as app:
            assert count(TurnVersion) == versions
            for game_id in [*before, *after]:
                check = cli(app, "game", "reverify", str(game_id))
                assert check.exit_code == 0 and REVERIFIED.format(2) in check.output
    finally:
        cluster.remove()
