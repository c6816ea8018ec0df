"""Fixtures for the IMAP watcher tests: watchers that stop, a Dovecot that can be restarted."""

from __future__ import annotations

import contextlib
import time

import pytest
from dovecot_server import PrivateDovecot

from vpsleuth.mail.inbound import watch

from .helpers import own_mailbox


@pytest.fixture
def watching(app):
    """Start watchers on the app (``watching(holder, **config)``); each is stopped after."""
    started: list[watch.Watcher] = []

    def start(holder: str | None = None, **config) -> watch.Watcher:
        app.config.update(config)
        started.append(watch.start_thread(app, holder=holder))
        return started[-1]

    yield start
    for watcher in started:
        watcher.stop(timeout=30)
        assert not watcher.thread.is_alive(), "a watcher did not stop"



@pytest.fixture(scope="module")
def server():
    """A Dovecot of the module's own, to be kicked, stopped and started again."""
    with PrivateDovecot() as dovecot:
        yield dovecot


@pytest.fixture
def own(app, server):
    """A folder of this test's own on that server, configured in the app."""
    mailbox = own_mailbox(app, server, f"own{time.monotonic_ns()}")
    yield mailbox
    with contextlib.suppress(Exception):
        mailbox.conn.logout()
