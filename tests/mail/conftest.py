"""Fixtures for the inbound mail tests: a started game, the corpus, a real Dovecot.

The game runs on the real clock (its first deadline a week ahead), because the
pipeline's entrances (a subprocess, the SMTP server) use the real clock too.
"""

from __future__ import annotations

import imaplib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import pytest

from vpsleuth.models import Player, utcnow
from vpsleuth.schedule import to_local, weekly
from vpsleuth.services import games

from .support import Mailbox, free_port, wait_for_port

IMAP_USER, IMAP_PASSWORD = "gm", "not-a-secret"


@pytest.fixture
def game(app):
    """A running game "Corpus" with Ada (English) and Ben (German), round 1 open."""
    first = to_local(utcnow() + timedelta(days=7), "Europe/Berlin")
    game = games.create_game("Corpus", weekly(first.strftime("%Y-%m-%d 20:00"),
                                              "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org", language="en")
    games.add_player(game, "Ben", "ben@example.org", language="de")
    games.start_game(game, seed=7)
    return game


@pytest.fixture
def ada(game) -> Player:
    return games.find_player(game, "Ada")


@pytest.fixture
def ben(game) -> Player:
    return games.find_player(game, "Ben")


_DOVECOT_CONF = """\
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


@pytest.fixture(scope="session")
def dovecot():
    """A private Dovecot IMAP server for the session: (host, port, user, password)."""
    binary = shutil.which("dovecot") or "/usr/sbin/dovecot"
    if not os.path.exists(binary):
        pytest.fail("dovecot is not installed (apt-get install -y dovecot-imapd)",
                    pytrace=False)
    root = Path(tempfile.mkdtemp(prefix="vpsleuth-dovecot-"))
    root.chmod(0o755)  # dovecot's unprivileged processes must reach their sockets
    (root / "home").mkdir()
    shutil.chown(root / "home", "dovenull", "dovenull")
    (root / "passwd").write_text(f"{IMAP_USER}:{{PLAIN}}{IMAP_PASSWORD}\n")
    port = free_port()
    (root / "dovecot.conf").write_text(_DOVECOT_CONF.format(root=root, port=port))
    subprocess.run([binary, "-c", str(root / "dovecot.conf")], check=True)
    try:
        wait_for_port(port)
        yield "127.0.0.1", port, IMAP_USER, IMAP_PASSWORD
    finally:
        pid_file = root / "run" / "master.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().strip())
            os.kill(pid, signal.SIGTERM)
            for _ in range(100):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def mailbox(app, dovecot):
    """Folders of this test's own on the Dovecot server, configured in the app."""
    host, port, user, password = dovecot
    name = f"t{time.monotonic_ns()}"
    app.config.update(IMAP_HOST=host, IMAP_PORT=port, IMAP_SSL=False, IMAP_STARTTLS=False,
                      IMAP_USER=user, IMAP_PASSWORD=password, IMAP_FOLDER=name,
                      IMAP_DONE_FOLDER=f"{name}-done")
    conn = imaplib.IMAP4(host, port)
    conn.login(user, password)
    conn.create(name)
    yield Mailbox(conn, name, f"{name}-done")
    conn.logout()
