"""Throwaway PostgreSQL clusters of a test's own: a primary, and standbys made from it.

Each cluster lives in a temporary folder on a free port of 127.0.0.1 (Debian's
server programs, /usr/lib/postgresql/N/bin), so stopping or killing it
disturbs no other user of the machine's server at 5432. As root the programs
run as the ``postgres`` user, since the server refuses to run as root.
``remove()`` stops the cluster at once and deletes its folder; call it in a
``finally`` (the fixtures do), also when the test fails.
"""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine, text


def _bindir() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise RuntimeError("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
    return Path(initdb).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A throwaway cluster: a new one by initdb, or a standby of ``standby_of``.

    A standby is a base backup of the primary taken with ``pg_basebackup -R``,
    which writes ``standby.signal`` and the primary's address (primary_conninfo,
    with ``application_name=name``, the name the primary's
    synchronous_standby_names knows it by) into the copy: started, it streams
    the primary's log and stays read-only until promoted.
    """

    def __init__(self, *, standby_of: Cluster | None = None, name: str = "standby") -> None:
        self.bindir = _bindir()
        self.folder = Path(tempfile.mkdtemp(prefix="vpsleuth-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        try:
            if standby_of is None:
                self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                          "--no-sync", "-E", "UTF8")
            else:
                primary = (f"host=127.0.0.1 port={standby_of.port} user=postgres "
                           f"application_name={name}")
                self._run("pg_basebackup", "-D", str(self.data), "-d", primary, "-R",
                          "-X", "stream", "-c", "fast", "--no-sync")
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bindir / program), *args], check=True,
                       timeout=120, capture_output=True)

    def trust(self, network: str) -> None:
        """Let clients from ``network`` (e.g. "198.18.0.0/24") in without a password, as
        initdb -A trust lets in 127.0.0.1; takes effect at the next start()."""
        with (self.data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {network} trust\n")

    def start(self, **settings: str) -> None:
        """Start it; ``settings`` go on the server's command line (``-c name=value``).

        Settings given so are this cluster's alone: a base backup copies the
        configuration files, never the command line. It listens on 127.0.0.1 unless
        ``listen_addresses`` says otherwise (e.g. also on a test network's address).
        pg_ctl hands the options to the server through a shell: each is quoted.
        """
        settings = {"listen_addresses": "127.0.0.1", **settings}
        options = [f"-p {self.port}", f"-k {self.folder}", "-c fsync=off",  # a later -c wins
                   *(f"-c {shlex.quote(f'{name}={value}')}" for name, value in settings.items())]
        self._run("pg_ctl", "-D", str(self.data), "-o", " ".join(options), "-l",
                  str(self.folder / "log"), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: a clean shut-down; ``immediate``: every server process killed at once,
        as a crash of the server leaves it (the next start recovers from the log)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def promote(self) -> None:
        """A standby becomes a primary (``pg_ctl promote``), waiting until it takes writes."""
        self._run("pg_ctl", "-D", str(self.data), "-w", "promote")

    def query(self, sql: str) -> list[tuple]:
        """The rows of ``sql`` on this cluster (none for a statement that returns none),
        in a connection of its own that commits each statement."""
        engine = create_engine(self.url, isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                result = conn.execute(text(sql))
                return [tuple(row) for row in result] if result.returns_rows else []
        finally:
            engine.dispose()

    def wait_for_standby(self, name: str, state: str = "sync", seconds: float = 30) -> None:
        """Until the standby called ``name`` streams from this primary in ``state``."""
        limit = time.monotonic() + seconds
        while time.monotonic() < limit:
            if self.query("SELECT application_name, sync_state FROM pg_stat_replication "
                          "WHERE state = 'streaming'").count((name, state)):
                return
            time.sleep(0.1)
        raise AssertionError(f"standby {name} is not streaming ({state}) after {seconds} s: "
                             f"{self.log()}")

    def log(self) -> str:
        path = self.folder / "log"
        return path.read_text(errors="replace") if path.exists() else ""

    def remove(self) -> None:
        subprocess.run([*self.as_user, str(self.bindir / "pg_ctl"), "-D", str(self.data),
                        "-m", "immediate", "-w", "stop"], capture_output=True, timeout=120)
        shutil.rmtree(self.folder, ignore_errors=True)
