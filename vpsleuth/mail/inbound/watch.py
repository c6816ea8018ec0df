"""The IMAP watcher: a reply is processed within seconds of arriving, by one process.

``vpsleuth scheduler`` and ``vpsleuth serve`` run it in a thread of their own
when IMAP_HOST is set and IMAP_IDLE is on; ``vpsleuth mail idle`` runs it alone.
It keeps one connection open and goes round:

1. take the mailbox lease (lease.py), or stand by while another process holds it;
2. connect, select IMAP_FOLDER, and process every message in it (imap.py), pass
   after pass until a pass finds nothing new and a fresh SELECT counts nothing
   beyond what that pass left (a message that came during a pass's SEARCH is
   told of in its answer, not again in IDLE: imap.select);
3. wait in IDLE until the server reports new mail (EXISTS), at most
   IMAP_IDLE_SECONDS, then back to 2. A server without IDLE is looked at every
   IMAP_POLL_SECONDS instead.

A dropped connection, a refused login or the database going away ends the
connection: the watcher logs one line, gives the lease back, and tries again
after 1, 2, 4, ... seconds, at most IMAP_RECONNECT_MAX_SECONDS (from 1 s again
once a connection has lasted a minute). Nothing it meets ends it; stop() does.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from dataclasses import dataclass

from flask import Flask
from imapclient import IMAPClient
from sqlalchemy.exc import SQLAlchemyError

from . import imap
from .imap import ImapError
from .lease import MailboxLease, new_holder

log = logging.getLogger(__name__)
STABLE_SECONDS = 60  # a connection that lasted this long starts the back-off afresh
SLICE = 0.25  # seconds: how often a wait looks at stop() and the lease (no IMAP traffic)
STANDBY_SECONDS = 5.0  # a watcher standing by asks this often whether the mailbox is free
QUICK_EMPTY = 3  # IDLE checks in a row that return at once with nothing: the socket is closed


class ConnectionLost(ImapError):
    """The server closed the connection (BYE, or end of file) while we idled."""


class Interrupted(Exception):
    """A pass left messages because the database was away; try again after a pause."""


@dataclass(frozen=True)
class Settings:
    """The watcher's timings, from the app's IMAP_* settings."""

    idle_seconds: float
    poll_seconds: float
    lease_seconds: float
    reconnect_max: float

    @classmethod
    def from_config(cls, cfg) -> Settings:
        return cls(idle_seconds=float(cfg.get("IMAP_IDLE_SECONDS") or 240),
                   poll_seconds=float(cfg.get("IMAP_POLL_SECONDS") or 10),
                   lease_seconds=float(cfg.get("IMAP_LEASE_SECONDS") or 90),
                   reconnect_max=float(cfg.get("IMAP_RECONNECT_MAX_SECONDS") or 300))


def backoff(failures: int, most: float) -> float:
    """Seconds to wait after ``failures`` failures in a row: 1, 2, 4, ..., at most ``most``."""
    return min(most, 2.0 ** min(failures - 1, 30))


class Watcher:
    """Watches the configured mailbox until stop(); see the module's docstring.

    ``state`` (starting, standby, connecting, processing, idle, polling, backoff,
    stopped), ``mode`` (idle or poll) and ``connections`` say what it is doing,
    for logs and tests.
    """

    def __init__(self, app: Flask, *, holder: str | None = None,
                 stop: threading.Event | None = None):
        self.app = app
        self.settings = Settings.from_config(app.config)
        self.lease = MailboxLease(holder or new_holder("watch"), self.settings.lease_seconds)
        self._stop = stop or threading.Event()
        self.thread: threading.Thread | None = None
        self.state, self.mode = "starting", ""
        self.connections = 0
        self.failures = 0  # in a row

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def stop(self, timeout: float | None = 15) -> None:
        """Ask the watcher to finish; wait up to ``timeout`` seconds for its thread."""
        self._stop.set()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(timeout)

    def run(self) -> None:
        """Watch until stop(); never raises (every failure is logged, then backed off)."""
        where = f"{self.app.config['IMAP_HOST']}:{self.app.config['IMAP_PORT']}"
        standing_by = False
        while not self.stopped:
            began = time.monotonic()
            try:
                with self.app.app_context():
                    held = self.lease.claim()
                if not held:
                    if not standing_by:
                        log.info("IMAP watcher: another process is processing the mailbox; "
                                 "standing by")
                    standing_by, self.state = True, "standby"
                    self._stop.wait(min(self.settings.lease_seconds / 3, STANDBY_SECONDS))
                    continue
                standing_by = False
                self._session(where)
            except Exception as exc:  # a watcher outlives every failure, by design
                if time.monotonic() - began >= STABLE_SECONDS:
                    self.failures = 0
                self.failures += 1
                delay = backoff(self.failures, self.settings.reconnect_max)
                self._log_failure(where, exc, delay)
                self._release()
                self.state = "backoff"
                self._stop.wait(delay)
        self._release()
        self.state = "stopped"

    def _session(self, where: str) -> None:
        """One connection: process, wait, process, ... until stopped or the lease is lost."""
        self.state = "connecting"
        with self.app.app_context():
            client = imap.connect()
        try:
            with self.app.app_context():
                caps = imap.capabilities(client)
                imap.open_folder(client)
            self.connections += 1
            self.mode = "idle" if "IDLE" in caps else "poll"
            self._log_connected(where)
            while not self.stopped:
                if not self._drain(client, caps):
                    return
                if self.mode == "idle":
                    kept = self._idle(client)
                else:
                    kept = self._pause(self.settings.poll_seconds)
                if not kept:
                    log.info("IMAP watcher: another process took the mailbox over")
                    return
        finally:
            imap.close(client)

    def _drain(self, client: IMAPClient, caps: set[str]) -> bool:
        """Pass after pass until one moves nothing; False if the lease was lost."""
        while not self.stopped:
            self.state = "processing"
            with self.app.app_context():
                result = imap.process_folder(client, caps, self.lease.keep)
            if result.stored:
                log.info("IMAP watcher: %d messages processed", len(result.stored))
            if result.retry_soon:
                raise Interrupted(result.errors[-1])
            for error in result.errors:
                log.warning("IMAP watcher: %s", error)
            if result.lost or not self._keep_lease():
                return False
            if result.moved:
                continue  # the next pass's SEARCH sees what came during this one
            # A pass that moved nothing may have missed a message that came just before
            # its SEARCH, and IDLE would not tell of it again (imap.select): go round
            # once more if the folder holds more than this pass left in it.
            with self.app.app_context():
                held = imap.select(client)
            if held <= result.left - result.vanished:
                return True
        return True

    def _idle(self, client: IMAPClient) -> bool:
        """Wait in IDLE for new mail, at most IMAP_IDLE_SECONDS; False if the lease was lost."""
        with imap.command("IDLE"):
            client.idle()
        self.state = "idle"  # from here on, the server tells of every new message
        try:
            outcome = self._await_news(client, self.settings.idle_seconds)
        except BaseException:
            # The server waits for DONE and answers no other command: a polite CLOSE or
            # LOGOUT would wait imap.TIMEOUT for its answer. Drop the connection instead.
            with contextlib.suppress(Exception):
                client.shutdown()
            raise
        with imap.command("DONE"):
            client.idle_done()
        return outcome != "lost"

    def _await_news(self, client: IMAPClient, seconds: float) -> str:
        """news, timeout, stop or lost (the lease); raises ConnectionLost."""
        end, quick = time.monotonic() + seconds, 0
        while not self.stopped:
            left = end - time.monotonic()
            if left <= 0:
                return "timeout"
            wait = min(SLICE, left)
            began = time.monotonic()
            with imap.command("IDLE"):
                responses = client.idle_check(timeout=wait)
            if any(r[:1] == (b"BYE",) for r in responses):
                raise ConnectionLost("the server said BYE")
            if any(len(r) > 1 and r[1] == b"EXISTS" for r in responses):
                return "news"
            # An idle_check that returns at once with nothing has met the end of the stream
            # (IMAPClient swallows the EOF); a few in a row mean the connection is gone.
            quick = quick + 1 if not responses and time.monotonic() - began < wait / 2 else 0
            if quick >= QUICK_EMPTY:
                raise ConnectionLost("the server closed the connection")
            if not self._keep_lease():
                return "lost"
        return "stop"

    def _pause(self, seconds: float) -> bool:
        """Wait between looks at a server without IDLE; False if the lease was lost."""
        self.state = "polling"
        end = time.monotonic() + seconds
        while not self.stopped and (left := end - time.monotonic()) > 0:
            self._stop.wait(min(SLICE, left))
            if not self._keep_lease():
                return False
        return True

    def _keep_lease(self) -> bool:
        if not self.lease.due:
            return True
        with self.app.app_context():
            return self.lease.claim()

    def _release(self) -> None:
        try:
            with self.app.app_context():
                self.lease.release()
        except Exception as exc:  # the lease runs out by itself
            log.debug("IMAP watcher: lease not released: %s", exc)

    def _log_connected(self, where: str) -> None:
        folder = self.app.config["IMAP_FOLDER"]
        how = ("with IDLE" if self.mode == "idle" else
               f"without IDLE (the server lacks it): looking every "
               f"{self.settings.poll_seconds:g} s")
        again = f" after {self.failures} failed attempt(s)" if self.failures else ""
        log.info("IMAP watcher: connected to %s%s; watching %s %s", where, again, folder, how)

    def _log_failure(self, where: str, exc: Exception, delay: float) -> None:
        if isinstance(exc, ImapError | OSError | Interrupted):
            why = str(exc) or exc.__class__.__name__
        elif isinstance(exc, SQLAlchemyError):
            why = f"database unavailable: {exc.__class__.__name__}"
        else:
            log.exception("IMAP watcher failed (%s); trying again in %g s", where, delay)
            return
        log.warning("IMAP watcher (%s): %s; trying again in %g s", where, why, delay)


def start_thread(app: Flask, *, holder: str | None = None) -> Watcher:
    """A watcher running in a daemon thread of its own; ``stop()`` ends it.

    Listed in ``app.extensions["imap_watchers"]``: the poll-imap job of this
    process leaves the mailbox to a live one.
    """
    watcher = Watcher(app, holder=holder)
    watcher.thread = threading.Thread(target=watcher.run, name="imap-watcher", daemon=True)
    watchers = app.extensions.setdefault("imap_watchers", [])
    watchers[:] = [w for w in watchers if w.thread is not None and w.thread.is_alive()]
    watchers.append(watcher)
    watcher.thread.start()
    return watcher
