"""A PostgreSQL cluster that archives its WAL, for the point-in-time recovery test.

initdb into a temporary folder, a free port, the settings docs/deployment.md
gives for archiving WAL into a folder, a base backup with pg_basebackup, and a
recovery from that base backup to the end of the archive. As root the server
programs run as the ``postgres`` user, which owns the folder. ``remove()`` stops
whatever runs and deletes the folder, also after a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine, text

from vpsleuth.services.backup import find_program


class ArchivingCluster:
    """Its server data in ``data``; the base backup, recovered in place, in ``base``."""

    def __init__(self) -> None:
        initdb = find_program("initdb")
        assert initdb, "PostgreSQL's server programs (initdb, pg_ctl) are not installed"
        self.bin = Path(initdb).resolve().parent  # the version's folder, beside pg_basebackup
        self.folder = Path(tempfile.mkdtemp(prefix="vpsleuth-wal-"))
        self.data, self.base = self.folder / "data", self.folder / "base"
        self.archive = self.folder / "archive"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.as_user: list[str] = []
        try:
            self.archive.mkdir()
            if os.geteuid() == 0:
                for path in (self.folder, self.archive):
                    shutil.chown(path, "postgres", "postgres")
                self.as_user = ["runuser", "-u", "postgres", "--"]
            self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                     "--no-sync", "-E", "UTF8")
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, program: str, *args: str) -> None:
        done = subprocess.run([*self.as_user, str(self.bin / program), *args], timeout=120,
                              capture_output=True, text=True)
        assert done.returncode == 0, f"{program}: {done.stderr}\n{self.log()}"

    def log(self) -> str:
        path = self.folder / "log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def _append(self, path: Path, lines: list[str]) -> None:
        with path.open("a") as conf:
            conf.write("\n".join(lines) + "\n")

    def archive_wal(self) -> None:
        """The settings of docs/deployment.md: every finished WAL segment copied away."""
        self._append(self.data / "postgresql.conf", [
            "wal_level = replica", "archive_mode = on",
            # As docs/deployment.md gives it: copied under another name and renamed, so a
            # copy cut short (the server killed mid-copy) never stands as a whole segment.
            f"archive_command = 'test ! -f {self.archive}/%f && cp %p {self.archive}/%f.part "
            f"&& mv {self.archive}/%f.part {self.archive}/%f'"])

    def start(self, data: Path) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off")
        self.run("pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"),
                 "-w", "start")

    def stop(self, data: Path) -> None:
        """Stop at once, as a crash would."""
        self.run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop")

    def base_backup(self) -> None:
        self.run("pg_basebackup", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                 "-D", str(self.base), "--checkpoint=fast")

    def _query(self, sql: str):
        engine = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                return conn.execute(text(sql)).scalar()
        finally:
            engine.dispose()

    def switch_wal(self, seconds: float = 30) -> None:
        """Close the current WAL segment and wait until the archive holds it (what
        archive_timeout does every so often)."""
        segment = self.archive / self._query("SELECT pg_walfile_name(pg_switch_wal())")
        limit = time.monotonic() + seconds
        while not segment.exists():
            assert time.monotonic() < limit, f"{segment.name} was never archived"
            time.sleep(0.1)

    def recover(self, seconds: float = 60) -> None:
        """Start the base backup as the server, replaying the archive to its end
        (recovery.signal and restore_command, as docs/deployment.md says)."""
        (self.base / "recovery.signal").touch()
        self._append(self.base / "postgresql.conf",
                     [f"restore_command = 'cp {self.archive}/%f %p'"])
        if self.as_user:
            for path in (self.base / "recovery.signal", self.base / "postgresql.conf"):
                shutil.chown(path, "postgres", "postgres")
        self.start(self.base)
        limit = time.monotonic() + seconds
        while self._query("SELECT pg_is_in_recovery()"):
            assert time.monotonic() < limit, "the recovery never ended"
            time.sleep(0.1)

    def remove(self) -> None:
        for data in (self.data, self.base):
            if (data / "postmaster.pid").exists():
                subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(data),
                                "-m", "immediate", "-w", "stop"], capture_output=True,
                               timeout=120)
        shutil.rmtree(self.folder, ignore_errors=True)
