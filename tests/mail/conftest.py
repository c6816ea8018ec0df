"""Fixtures for the inbound mail tests: a started game, the SMTP receiver, a real Dovecot.

The game runs on the real clock (its first deadline a week ahead), because the
pipeline's entrances (a subprocess, the SMTP server) use the real clock too.
"""

from __future__ import annotations

import imaplib
import os
import time
from datetime import timedelta

import pytest
from dovecot_server import PrivateDovecot

from vpsleuth.mail.inbound.smtpd import controller
from vpsleuth.models import Player, utcnow
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import games

from .support import Mailbox, free_port

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


@pytest.fixture
def smtp_port(app):
    """The receiver running in this process on a free port, feeding the test database."""
    port = free_port()
    server = controller(app, "127.0.0.1", port)
    server.start()
    yield port
    server.stop()


@pytest.fixture(scope="session")
def dovecot():
    """A private Dovecot IMAP server for the session: (host, port, user, password)."""
    server = PrivateDovecot(IMAP_USER, IMAP_PASSWORD)
    if not os.path.exists(server.binary):
        pytest.fail("dovecot is not installed (apt-get install -y dovecot-imapd)",
                    pytrace=False)
    with server:
        yield server.host, server.port, server.user, server.password


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
