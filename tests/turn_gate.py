"""Hold turns sent at once at the lock on their round, and let them on in a chosen order.

A submission stores its version first (TurnVersion, numbered by id as it is
stored) and only then takes the lock on the round row (``UPDATE round ...``)
to apply it. Between the two, anything can overtake it: on a real server the
version stored first may be applied last. The gate makes that interleaving
happen on purpose: it catches the round UPDATE in the thread that stored a
version, waits until every expected version is stored, and lets them take the
lock one at a time, in ``order`` (receipt ranks: 0 is the version stored
first), each only once the one before it has committed.

It listens to SQLAlchemy events only (a version inserted, a statement about to
run, a session committed), so it holds the web, the API and the mail pipeline
alike, whatever functions they go through. Each submission must run in a
thread of its own, as every request does on a threaded server.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session

from vpsleuth.models import TurnVersion

WAIT = 60  # seconds any one submission may be held


class LockGate:
    """Lets ``expected`` submissions take their round's lock in ``order`` of receipt rank."""

    def __init__(self, expected: int, order: Sequence[int]) -> None:
        assert sorted(order) == list(range(expected)), "order: a permutation of the ranks"
        self.expected, self.order = expected, list(order)
        self.stored: list[int] = []  # version ids, as inserted
        self.locked: list[int] = []  # version ids, in the order they took the lock
        self.failures: list[str] = []
        self._committed = 0
        self._cond = threading.Condition()
        self._local = threading.local()

    @property
    def ranks(self) -> dict[int, int]:
        """Version id -> receipt rank (0: stored first)."""
        return {vid: rank for rank, vid in enumerate(sorted(self.stored))}

    def _inserted(self, _mapper, _connection, version: TurnVersion) -> None:
        self._local.version, self._local.held = version.id, False
        with self._cond:
            self.stored.append(version.id)
            self._cond.notify_all()

    def _statement(self, _conn, _cursor, statement: str, *_args) -> None:
        version = getattr(self._local, "version", None)
        if (version is None or self._local.held
                or not statement.lstrip().upper().startswith("UPDATE ROUND")):
            return
        self._local.held = True
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.stored) >= self.expected, WAIT):
                return self._fail(f"only {len(self.stored)} of {self.expected} versions stored")
            turn = self.order.index(self.ranks[version])
            if not self._cond.wait_for(lambda: self._committed >= turn or self.failures, WAIT):
                return self._fail(f"version {version} (turn {turn}) waited in vain")
            self.locked.append(version)
        return None

    def _commit(self, _session) -> None:
        if getattr(self._local, "held", False) and getattr(self._local, "version", None):
            self._local.version = None  # counted once: the commit that applied (or refused) it
            with self._cond:
                self._committed += 1
                self._cond.notify_all()

    def _fail(self, why: str) -> None:
        self.failures.append(why)  # everybody else goes on at once; the test reports it
        self._cond.notify_all()


@contextmanager
def lock_gate(engine: Engine, expected: int, order: Sequence[int]) -> Iterator[LockGate]:
    """``with lock_gate(db.engine, 20, reversed(range(20))) as gate:`` send the turns."""
    gate = LockGate(expected, list(order))
    with listening([(TurnVersion, "after_insert", gate._inserted),
                    (engine, "before_cursor_execute", gate._statement),
                    (Session, "after_commit", gate._commit)]):
        yield gate


@contextmanager
def listening(listeners: Sequence[tuple]) -> Iterator[None]:
    """SQLAlchemy event listeners (target, name, function) for the ``with`` block only."""
    for target, name, fn in listeners:
        event.listen(target, name, fn)
    try:
        yield
    finally:
        for target, name, fn in listeners:
            event.remove(target, name, fn)


class StoreGate:
    """Lets ``expected`` versions be stored one at a time, the one received last first.

    A submission takes its time of receipt (TurnVersion.received_at) before it
    stores the version, and the version's id when it is stored; on a busy server
    one received later can be stored first. The gate makes that happen for all
    of them: it holds each submission as it starts the flush that stores its
    version (before that flush writes anything, so a held one keeps no write
    lock from the others) until every expected one is waiting, then lets them
    on by received_at, latest first, each once the one before it has its id.
    Then the ids run against the times of receipt.
    """

    def __init__(self, expected: int) -> None:
        self.expected = expected
        self.waiting: list[tuple] = []  # (received_at, thread id)
        self.stored: list[int] = []  # version ids, as inserted
        self.failures: list[str] = []
        self._cond = threading.Condition()

    def _flushing(self, session: Session, _context, _instances) -> None:
        version = next((o for o in session.new if isinstance(o, TurnVersion)), None)
        if version is None:
            return None
        me = (version.received_at, threading.get_ident())
        with self._cond:
            self.waiting.append(me)
            self._cond.notify_all()
            if not self._cond.wait_for(lambda: len(self.waiting) >= self.expected, WAIT):
                return self._fail(f"only {len(self.waiting)} of {self.expected} versions came")
            turn = sorted(self.waiting, reverse=True).index(me)
            if not self._cond.wait_for(lambda: len(self.stored) >= turn or self.failures,
                                       WAIT):
                return self._fail(f"the version received at {me[0]} waited in vain")
        return None

    def _inserted(self, _mapper, _connection, version: TurnVersion) -> None:
        with self._cond:
            self.stored.append(version.id)
            self._cond.notify_all()

    def _fail(self, why: str) -> None:
        self.failures.append(why)
        self._cond.notify_all()


@contextmanager
def store_gate(expected: int) -> Iterator[StoreGate]:
    """``with store_gate(20) as gate:`` send the turns; the last received is stored first."""
    gate = StoreGate(expected)
    with listening([(Session, "before_flush", gate._flushing),
                    (TurnVersion, "after_insert", gate._inserted)]):
        yield gate
