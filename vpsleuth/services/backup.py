"""Back up the whole database while the service runs, and restore a backup.

SQLite: Python's sqlite3 ``Connection.backup`` (SQLite's online backup API) copies
every page in one step, inside one read transaction: a consistent snapshot, and
in WAL mode the service's writers never wait for it. PostgreSQL: ``pg_dump
--format=custom``, a consistent snapshot too, and ``pg_restore``.

A restore goes into an empty database (one with games only when forced), then
brings the schema to this version's newest revision (an older backup restores
into a newer vpsleuth), then gives back the claims of senders that were
mid-send when the backup was taken: in the restored database nobody holds
them, so those mails and notices go again at once, each with its own
Message-ID as before (docs/deployment.md, "Backups and restore").
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import time
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from alembic.script import ScriptDirectory
from alembic.util import CommandError
from flask import current_app
from flask_migrate import upgrade
from sqlalchemy import func, inspect, select, text, update

from ..extensions import db
from ..models import Game, Notice, OutboxMessage, utcnow

POSTGRES_BIN = Path("/usr/lib/postgresql")  # Debian's versioned server and client programs


class BackupError(Exception):
    """A backup or restore refused or failed, said for the operator's shell.

    Plain English rather than a ServiceError's catalogue message: only the command
    line backs up and restores, and the command line stays English.
    """


@dataclass(frozen=True)
class Backup:
    """What ``back_up`` wrote: the file, its size, the games and schema revision in it."""

    path: Path
    size: int
    games: int
    revision: str
    taken_at: datetime
    seconds: float


@dataclass(frozen=True)
class Restored:
    """What ``restore`` did: the games it brought, the schema before and after, and the
    claims it gave back (outbox mails and push/webhook notices left 'sending')."""

    games: int
    revision: str
    head: str
    mails: int
    notices: int
    seconds: float


def back_up(target: Path, *, force: bool = False) -> Backup:
    """Write a consistent copy of the configured database to ``target``.

    The copy is written beside ``target`` and renamed into place when complete, so
    an existing backup is replaced (``force``) only by a whole one.
    """
    target = Path(target)
    if target.is_dir():
        raise BackupError(f"{target} is a folder: name the file to write")
    if target.exists() and not force:
        raise BackupError(f"{target} exists already: choose another name, or add --force "
                          "to replace it")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent} to write {target.name} in")
    partial = target.with_name(target.name + ".partial")
    taken_at, began = utcnow(), time.monotonic()
    try:
        if _dialect() == "sqlite":
            games, revision = _dump_sqlite(partial, target)
        else:
            games, revision = _dump_postgres(partial, target)
        os.replace(partial, target)
    finally:
        for leftover in (partial, partial.with_name(partial.name + "-journal")):
            leftover.unlink(missing_ok=True)
    return Backup(target, target.stat().st_size, games, revision, taken_at,
                  time.monotonic() - began)


def restore(source: Path, *, force: bool = False) -> Restored:
    """Restore the backup ``source`` into the configured database, then upgrade its schema
    and give back the claims of senders that were mid-send at the backup.

    The service (web and scheduler) must be stopped. A database that has games
    is refused unless ``force``; with it, what the database held is replaced.
    """
    source = Path(source)
    began = time.monotonic()
    if _dialect() == "sqlite":
        games, revision = _load_sqlite(source, force)
    else:
        games, revision = _load_postgres(source, force)
    db.session.remove()
    db.engine.dispose()  # no pooled connection remembers the database before the restore
    upgrade()
    mails, notices = release_claims()
    return Restored(games, revision, _script().get_current_head(), mails, notices,
                    time.monotonic() - began)


def release_claims() -> tuple[int, int]:
    """Outbox mails and notices left 'sending' go back to 'pending'; how many of each.

    A row is 'sending' between a sender's claim and the mark after the SMTP (or push)
    server took it. Whoever claimed the rows of a restored database works on another
    one, or not at all: nobody here will finish them, so they are given back now
    rather than after the stale-claim time. The Message-ID stays: if the mail did
    go out before the backup, mail clients see the second copy as the same message.
    """
    mails = db.session.execute(
        update(OutboxMessage).where(OutboxMessage.status == "sending")
        .values(status="pending").execution_options(synchronize_session=False)).rowcount
    notices = db.session.execute(
        update(Notice).where(Notice.status == "sending")
        .values(status="pending").execution_options(synchronize_session=False)).rowcount
    db.session.commit()
    return mails, notices


def pg_dump_command(program: str, target: Path) -> list[str]:
    """The pg_dump command line for the configured database (no password in it)."""
    return [program, "--format=custom", f"--file={target}", libpq_url()]


def pg_restore_command(program: str, source: Path) -> list[str]:
    """The pg_restore command line into the configured database: objects owned by the
    connecting role, all or nothing."""
    return [program, "--no-owner", "--no-privileges", "--single-transaction",
            f"--dbname={libpq_url()}", str(source)]


def libpq_url() -> str:
    """The configured database as a libpq URI, without the password (PGPASSWORD carries
    it, out of the process list)."""
    url = db.engine.url.set(drivername="postgresql", password=None)
    return url.render_as_string(hide_password=False)


def find_program(name: str) -> str | None:
    """A PostgreSQL program on PATH, else the newest under /usr/lib/postgresql/*/bin."""
    found = shutil.which(name)
    if found:
        return found
    versions = [path for path in POSTGRES_BIN.glob(f"*/bin/{name}") if os.access(path, os.X_OK)]
    versions.sort(key=lambda path: [int(n) for n in re.findall(r"\d+", path.parts[-3])])
    return str(versions[-1]) if versions else None


def _dialect() -> str:
    return db.engine.dialect.name


def _script() -> ScriptDirectory:
    return ScriptDirectory.from_config(current_app.extensions["migrate"].migrate.get_config())


def _sqlite_file() -> Path:
    url = db.engine.url
    if not url.database or url.database == ":memory:" or url.query.get("mode") == "memory":
        raise BackupError("the database is in memory: it lives only inside the process "
                          "that uses it, so no other process can back it up or restore it")
    return Path(url.database)


def _dump_sqlite(partial: Path, target: Path) -> tuple[int, str]:
    live = _sqlite_file()
    if not live.exists():
        raise BackupError(f"there is no database at {live} to back up")
    if target.exists() and target.resolve() == live.resolve():
        raise BackupError(f"{target} is the database itself: name another file")
    partial.unlink(missing_ok=True)
    with closing(sqlite3.connect(live, timeout=30)) as source, \
            closing(sqlite3.connect(partial)) as copy:
        source.backup(copy)  # pages=-1: every page in one step, one read transaction
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        return _sqlite_facts(copy, partial)


def _load_sqlite(source: Path, force: bool) -> tuple[int, str]:
    live = _sqlite_file()
    if live.exists() and source.resolve() == live.resolve():
        raise BackupError(f"{source} is the configured database itself")
    with closing(sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True)) as backup:
        games, revision = _sqlite_facts(backup, source)
        _check_revision(revision, source)
        _refuse_if_games(force)
        db.session.remove()
        db.engine.dispose()
        live.parent.mkdir(parents=True, exist_ok=True)
        with closing(sqlite3.connect(live, timeout=30)) as target:
            backup.backup(target)
    return games, revision


def _sqlite_facts(conn: sqlite3.Connection, path: Path) -> tuple[int, str]:
    """The games and schema revision in an SQLite copy; refuses a damaged or foreign file."""
    try:
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if check != "ok":
            raise BackupError(f"{path} is damaged (SQLite's quick_check: {check})")
        if not {"alembic_version", "game"} <= tables:
            raise BackupError(f"{path} is an SQLite database, but not one of vpsleuth")
        revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        games = conn.execute("SELECT count(*) FROM game").fetchone()[0]
    except sqlite3.Error as exc:
        raise BackupError(f"{path} cannot be read as an SQLite database: {exc}") from None
    if revision is None:
        raise BackupError(f"{path} has no schema revision: not a vpsleuth backup")
    return games, revision[0]


def _dump_postgres(partial: Path, target: Path) -> tuple[int, str]:
    dump = _program("pg_dump", pg_dump_command("pg_dump", target))
    _run(pg_dump_command(dump, partial), "pg_dump", pg_dump_command("pg_dump", target))
    return _archive_facts(partial)


def _load_postgres(source: Path, force: bool) -> tuple[int, str]:
    command = pg_restore_command("pg_restore", source)
    program = _program("pg_restore", command)
    games, revision = _archive_facts(source)
    _check_revision(revision, source)
    _refuse_if_games(force)
    _drop_tables()
    db.session.remove()
    db.engine.dispose()
    _run(pg_restore_command(program, source), "pg_restore", command)
    return games, revision


def _archive_facts(archive: Path) -> tuple[int, str]:
    """The games and schema revision in a pg_dump archive, read from the archive itself
    (pg_restore prints the two tables' data as COPY blocks, one line a row)."""
    program = _program("pg_restore", ["pg_restore", "--list", str(archive)])
    done = subprocess.run([program, "--data-only", "--table=alembic_version", "--table=game",
                           "--file=-", str(archive)], capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{archive} is not a pg_dump archive pg_restore can read: "
                          f"{done.stderr.strip()}")
    rows: dict[str, list[str]] = {}
    table = None
    for line in done.stdout.splitlines():
        if table is not None:
            if line == "\\.":
                table = None
            else:
                rows[table].append(line)
        elif match := re.match(r"COPY (?:\S+\.)?(\w+) \(.*\) FROM stdin;$", line):
            table = match.group(1)
            rows[table] = []
    if "alembic_version" not in rows or "game" not in rows:
        raise BackupError(f"{archive} is a pg_dump archive, but not of a vpsleuth database")
    if not rows["alembic_version"]:
        raise BackupError(f"{archive} has no schema revision: not a vpsleuth backup")
    return len(rows["game"]), rows["alembic_version"][0]


def _check_revision(revision: str, path: Path) -> None:
    try:
        known = _script().get_revision(revision)
    except CommandError:
        known = None
    if known is None:
        raise BackupError(f"{path} was made by a newer vpsleuth (schema revision {revision} is "
                          "unknown to this one): restore it with that version or a later one")


def _refuse_if_games(force: bool) -> None:
    if force or not inspect(db.engine).has_table("game"):
        return
    games = db.session.scalar(select(func.count()).select_from(Game))
    db.session.rollback()
    if games:
        raise BackupError(f"the configured database has {games} game{'s' if games != 1 else ''} "
                          "already: restore into an empty database, or add --force to "
                          "replace everything in it with the backup")


def _drop_tables() -> None:
    """Empty a PostgreSQL database for pg_restore (a schema made by ``db upgrade``, or
    a database being replaced): every table of its default schema."""
    names = inspect(db.engine).get_table_names()
    if not names:
        return
    quote = db.engine.dialect.identifier_preparer.quote
    with db.engine.begin() as conn:
        conn.execute(text("DROP TABLE " + ", ".join(quote(n) for n in names) + " CASCADE"))


def _program(name: str, command: list[str]) -> str:
    found = find_program(name)
    if found is None:
        raise BackupError(f"{name} was found neither on PATH nor under {POSTGRES_BIN}/*/bin: "
                          "install the PostgreSQL client programs (Debian: postgresql-client, "
                          f"of the server's version or newer), or run yourself:\n  "
                          f"{shlex.join(command)}")
    return found


def _run(command: list[str], name: str, shown: list[str]) -> None:
    env = dict(os.environ)
    if db.engine.url.password:
        env["PGPASSWORD"] = db.engine.url.password
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{name} failed (exit status {done.returncode}): "
                          f"{done.stderr.strip()}\nThe command was:\n  {shlex.join(shown)}")
