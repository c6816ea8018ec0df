"""A private Dovecot IMAP server that a test or a benchmark can stop, start and kick.

Debian's dovecot-imapd, run as root with a configuration of its own in a
temporary folder: plain IMAP on 127.0.0.1 and a free port, one user with a
plain password, maildirs owned by dovenull. Standard library only, so that the
benchmarks can use it too (bench/mail_turnaround.py).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
default_login_user = dovenull
default_internal_user = dovecot
mail_location = maildir:~/Maildir
# IDLE learns of new mail by inotify, whose instances are few per user (128 here) and
# shared by every server of the run; without one Dovecot looks every 30 s, as long as
# a test waits. A second's look keeps IDLE telling of new mail within the wait.
mailbox_idle_check_interval = 1 secs
passdb {{
  driver = passwd-file
  args = {root}/passwd
}}
userdb {{
  driver = static
  args = uid=dovenull gid=dovenull home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateDovecot:
    """``with PrivateDovecot() as server:`` a running server at server.host, server.port."""

    host = "127.0.0.1"

    def __init__(self, user: str = "gm", password: str = "not-a-secret"):
        self.user, self.password = user, password
        self.binary = shutil.which("dovecot") or "/usr/sbin/dovecot"
        self.root: Path | None = None
        self.port = 0

    @property
    def config(self) -> Path:
        assert self.root is not None
        return self.root / "dovecot.conf"

    def __enter__(self) -> PrivateDovecot:
        if not os.path.exists(self.binary):
            raise RuntimeError("dovecot is not installed (apt-get install -y dovecot-imapd)")
        self.root = Path(tempfile.mkdtemp(prefix="vpsleuth-dovecot-"))
        self.root.chmod(0o755)  # dovecot's unprivileged processes must reach their sockets
        (self.root / "home").mkdir()
        shutil.chown(self.root / "home", "dovenull", "dovenull")
        (self.root / "passwd").write_text(f"{self.user}:{{PLAIN}}{self.password}\n")
        self.port = _free_port()
        self.config.write_text(CONFIG.format(root=self.root, port=self.port))
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)

    def start(self) -> None:
        """Start the server (again, on the same port and mail) and wait until it listens."""
        subprocess.run([self.binary, "-c", str(self.config)], check=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as s:
                # the master writes its pid file after it listens: stop() needs both
                if s.connect_ex((self.host, self.port)) == 0 and self._pid_file.exists():
                    return
            time.sleep(0.05)
        raise RuntimeError(f"dovecot does not listen on port {self.port} after 20 s")

    @property
    def _pid_file(self) -> Path:
        assert self.root is not None
        return self.root / "run" / "master.pid"

    def stop(self) -> None:
        """Stop the server and every connection it has; wait until its master is gone."""
        if not self._pid_file.exists():
            return
        pid = int(self._pid_file.read_text().strip())
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        for _ in range(200):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)

    def kick(self, user: str | None = None) -> str:
        """Close every connection of ``user`` on the server's side (doveadm kick)."""
        done = subprocess.run(["doveadm", "-c", str(self.config), "kick", user or self.user],
                              check=True, capture_output=True, text=True)
        return done.stdout
