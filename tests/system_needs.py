"""What the tests need of the machine, brought before the first test runs.

The README's test command must pass on a fresh machine with nothing installed
by hand, so the run itself brings what its tests drive for real:

* Debian's ``chromium-headless-shell`` and ``chromium`` (the browser tests: most run
  in the shell, the notice test in the full browser) and ``dovecot-imapd`` (the IMAP
  tests): installed with apt-get when missing and this run is root; otherwise
  the run stops at once with a message naming the packages;
* the local PostgreSQL server: started with ``pg_ctlcluster`` when it is down.

Only what the collected tests use is brought (``needs_of``): a run of the unit
tests installs nothing. Nothing is ever skipped: a need that cannot be met
stops the run with a message (``Unmet``). When everything is there this costs
a PATH look-up and one connection attempt. Several runs at once take turns
through a lock file, so that two never install or start the same thing.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SYSTEM_DIRS = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
LOCK = Path(tempfile.gettempdir()) / "vpsleuth-system-needs.lock"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


class Unmet(Exception):
    """Something the tests need is missing and cannot be brought: the message says what."""


@dataclass(frozen=True)
class Package:
    """A Debian package the tests drive, and the program that shows it is there."""

    name: str
    program: str
    used_by: str


CHROMIUM = Package("chromium", "chromium",
                   "the push notice test (Playwright drives it, with a desktop's notices)")
HEADLESS_SHELL = Package("chromium-headless-shell", "chromium-headless-shell",
                         "the browser tests (Playwright drives it)")
DOVECOT = Package("dovecot-imapd", "dovecot", "the IMAP tests")
DBUS = Package("dbus-daemon", "dbus-daemon",
               "the notification clicked in tests/web/test_installable_browser.py")
# fixtures that open the PostgreSQL server of VPSLEUTH_TEST_POSTGRES_URL
POSTGRES_FIXTURES = frozenset({"app", "app_on", "migrated", "postgres_url"})


@dataclass(frozen=True)
class Needs:
    packages: tuple[Package, ...] = ()
    postgres: bool = False


def needs_of(items: Iterable, modules: Iterable[str], databases: Iterable[str]) -> Needs:
    """What the collected test ``items`` need, given the modules loaded while collecting them.

    Chromium and its headless shell: a test module imported Playwright. Dovecot: one imported
    tests/dovecot_server.py or a test uses the ``dovecot`` fixture. PostgreSQL:
    it is one of the databases under test and a test uses an app fixture.
    """
    items = list(items)
    modules = set(modules)
    fixtures = set().union(*(getattr(item, "fixturenames", ()) for item in items))
    packages = []
    if items and any(m == "playwright" or m.startswith("playwright.") for m in modules):
        packages += [HEADLESS_SHELL, CHROMIUM]
    if items and ("dovecot_server" in modules or "dovecot" in fixtures):
        packages.append(DOVECOT)
    if items and "notification_daemon" in modules:
        packages.append(DBUS)
    return Needs(tuple(packages), "postgresql" in databases and bool(fixtures & POSTGRES_FIXTURES))


def missing(packages: Iterable[Package], search_path: str) -> list[Package]:
    """The packages whose program is not on ``search_path``."""
    return [p for p in packages if shutil.which(p.program, path=search_path) is None]


def default_search_path(env: Mapping[str, str]) -> str:
    """PATH and the system folders (dovecot lives in /usr/sbin, often not on a user's PATH)."""
    return os.pathsep.join(filter(None, [env.get("PATH", ""), SYSTEM_DIRS]))


def install(packages: list[Package], *, is_root: bool, search_path: str,
            run: Callable[..., subprocess.CompletedProcess] = subprocess.run,
            say: Callable[[str], None] = print) -> None:
    """Install ``packages`` with apt-get (root only), then check they are really there."""
    if not packages:
        return
    names = " ".join(p.name for p in packages)
    why = "; ".join(f"{p.name} for {p.used_by}" for p in packages)
    apt_get = shutil.which("apt-get", path=search_path)
    if not is_root or apt_get is None:
        reason = "this run is not root" if not is_root else "there is no apt-get here"
        raise Unmet(f"The tests need Debian packages that are not installed ({why}), and "
                    f"{reason}, so it cannot install them: run `sudo apt-get install -y "
                    f"{names}`, then the tests again.")
    say(f"Installing {names} with apt-get ({why}); this takes a few minutes, once.")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    lock_wait = ["-o", "DPkg::Lock::Timeout=600"]
    for args in ([apt_get, *lock_wait, "update", "-qq"],
                 [apt_get, *lock_wait, "install", "-y", "-qq", *(p.name for p in packages)]):
        done = run(args, env=env)
        if done.returncode != 0:
            raise Unmet(f"`{' '.join(args)}` failed (exit {done.returncode}); the tests need "
                        f"{why}. Install them by hand and run again.")
    still = missing(packages, search_path)
    if still:
        raise Unmet("apt-get finished but " + ", ".join(p.program for p in still)
                    + " is still not on the PATH; the tests need " + why)


def postgres_listens(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def start_postgres(host: str, port: int, *, search_path: str,
                   clusters: Path = Path("/etc/postgresql"), timeout: float = 30.0,
                   run: Callable[..., subprocess.CompletedProcess] = subprocess.run,
                   ready: Callable[[], bool] | None = None,
                   say: Callable[[str], None] = print) -> None:
    """Start the local PostgreSQL cluster(s) if nothing listens at host:port, as .ci/run did.

    ``ready`` tells when the server accepts connections (by default: it listens).
    A server elsewhere is never started: the conftest then says it is unreachable.
    """
    if host not in LOCAL_HOSTS or postgres_listens(host, port):
        return
    ready = ready or (lambda: postgres_listens(host, port))
    pg_ctlcluster = shutil.which("pg_ctlcluster", path=search_path)
    versions = sorted(p.name for p in clusters.iterdir()) if clusters.is_dir() else []
    if pg_ctlcluster is None or not versions:
        raise Unmet(f"PostgreSQL is not running at {host}:{port} and there is no local "
                    f"cluster to start ({clusters} is empty or pg_ctlcluster is missing). "
                    "Start a server there, point VPSLEUTH_TEST_POSTGRES_URL at one, or "
                    "run SQLite only with VPSLEUTH_TEST_DATABASES=sqlite.")
    for version in versions:
        say(f"PostgreSQL is down: starting cluster {version}/main.")
        run([pg_ctlcluster, "--skip-systemctl-redirect", version, "main", "start"])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.2)
    raise Unmet(f"PostgreSQL at {host}:{port} is still down {timeout:.0f} s after "
                f"`pg_ctlcluster --skip-systemctl-redirect {' '.join(versions)} main start`; "
                "see /var/log/postgresql/ for why.")


def accepts_queries(url: str) -> Callable[[], bool]:
    """A readiness check that logs in (a server still starting up refuses logins)."""
    from sqlalchemy.engine import make_url

    parts = make_url(url)

    def ready() -> bool:
        import psycopg

        try:
            psycopg.connect(host=parts.host, port=parts.port or 5432, user=parts.username,
                            password=parts.password, dbname=parts.database,
                            connect_timeout=2).close()
            return True
        except psycopg.OperationalError as exc:
            return "starting up" not in str(exc) and "shutting down" not in str(exc)
    return ready


@contextmanager
def taking_turns(path: Path = LOCK):
    """One run at a time installs or starts things (others wait here, then find them)."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def bring(needs: Needs, postgres_url: str, *, search_path: str | None = None,
          is_root: bool | None = None, say: Callable[[str], None] = print) -> None:
    """Install the missing packages and start PostgreSQL where ``needs`` asks; or raise Unmet."""
    from sqlalchemy.engine import make_url

    search_path = search_path or default_search_path(os.environ)
    url = make_url(postgres_url)
    host, port = url.host or "127.0.0.1", url.port or 5432
    lacking = missing(needs.packages, search_path)
    postgres_down = needs.postgres and host in LOCAL_HOSTS and not postgres_listens(host, port)
    if not lacking and not postgres_down:
        return  # the usual case: nothing to do
    with taking_turns():
        install(missing(needs.packages, search_path),
                is_root=os.geteuid() == 0 if is_root is None else is_root,
                search_path=search_path, say=say)
        if needs.postgres:
            start_postgres(host, port, search_path=search_path,
                           ready=accepts_queries(postgres_url), say=say)
