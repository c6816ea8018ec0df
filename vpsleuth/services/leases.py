"""Leases: one holder at a time for a piece of work, across threads, processes and hosts.

A holder keeps its lease by renewing it every third of its time (``keep()``); a
holder that stops renewing (killed, hung, cut off from the database) loses it
``seconds`` after its last renewal, and the next taker gets it. Used for the IMAP
mailbox (mail/inbound/lease.py) and for the one scheduler a SQLite database
allows (jobs/scheduler.py).

A lease is one SchedulerState row (value: the holder, updated_at: its last
renewal), claimed with a conditional UPDATE on its own connection, like rounds
and mails: safe on SQLite and PostgreSQL, and independent of the ORM session the
caller is using.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from datetime import datetime, timedelta

from sqlalchemy import insert, or_, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ..extensions import db
from ..models import SchedulerState, utcnow

log = logging.getLogger(__name__)
_TABLE = SchedulerState.__table__


def new_holder(role: str) -> str:
    """A name no other thread or process uses: role, host, process and a random part."""
    return f"{role}@{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def current_holder(name: str) -> str:
    """Who holds lease ``name`` now (renewed within no particular time); "" if nobody."""
    with db.engine.connect() as conn:
        return conn.scalar(select(_TABLE.c.value).where(_TABLE.c.name == name)) or ""


class Lease:
    """The right to do the work named ``name``, held by ``holder`` for ``seconds`` at a time."""

    def __init__(self, name: str, holder: str, seconds: float):
        self.name = name
        self.holder = holder
        self.seconds = float(seconds)
        self._claimed_at: float | None = None  # monotonic time of the last successful claim

    def claim(self, now: datetime | None = None) -> bool:
        """Take the lease if it is free or stale, or renew it if it is ours; True if held now."""
        now = now or utcnow()
        held = self._update(now)
        if not held:
            with db.engine.connect() as conn:
                missing = conn.scalar(select(_TABLE.c.name)
                                      .where(_TABLE.c.name == self.name)) is None
            if missing:
                try:
                    with db.engine.begin() as conn:
                        conn.execute(insert(_TABLE).values(name=self.name, value=self.holder,
                                                           updated_at=now))
                    held = True
                except IntegrityError:  # another process created it a moment ago
                    held = self._update(now)
        self._claimed_at = time.monotonic() if held else None
        return held

    def _update(self, now: datetime) -> bool:
        stale = now - timedelta(seconds=self.seconds)
        with db.engine.begin() as conn:
            done = conn.execute(update(_TABLE).where(
                _TABLE.c.name == self.name,
                or_(_TABLE.c.value == self.holder, _TABLE.c.value == "",
                    _TABLE.c.updated_at < stale)).values(value=self.holder, updated_at=now))
        return done.rowcount == 1

    @property
    def due(self) -> bool:
        """Whether it is time to renew: a third of the lease has passed since the last claim."""
        return (self._claimed_at is None
                or time.monotonic() - self._claimed_at >= self.seconds / 3)

    def keep(self) -> bool:
        """Still ours? Renews the lease when due; cheap (no database) otherwise."""
        return True if not self.due else self.claim()

    def release(self) -> None:
        """Give the lease back at once (if ours), so that the next taker need not wait."""
        self._claimed_at = None
        try:
            with db.engine.begin() as conn:
                conn.execute(update(_TABLE).where(_TABLE.c.name == self.name,
                                                  _TABLE.c.value == self.holder)
                             .values(value=""))
        except SQLAlchemyError as exc:  # it runs out by itself
            log.warning("could not release the lease %s: %s", self.name,
                        exc.__class__.__name__)
