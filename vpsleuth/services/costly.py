"""Costly requests: a few at a time per account, and so many a minute (issue 24, 1).

Measured (bench/request_costs.py): most pages cost a process 1-5 ms of CPU;
a practice turn 0.1-0.8 s (the round resolves and the bots choose), a new
practice game 0.2 s, the story page 35 ms (read as stored, the words and the
chart rendered), the sheet with the deduction aid up to a few hundred ms on
its first look at a record. Such a path, repeated without limit or many at
once by one account, would keep every worker busy and the server from
everyone else. So each is spent through ``spending``:

* at most IN_FLIGHT of them at the same time per account in this process (a
  request beyond that is refused at once: the worker threads stay free for
  others, and nobody waits in a queue behind one account);
* at most ``per_minute`` (or ``per_hour``) of a kind per account, counted in
  the database (limits.py), so across every worker and process.

The refusal is a RateLimited error: 429 and a sentence in the reader's language.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from ..extensions import db
from ..i18n import N_
from . import limits
from .auth import RateLimited

IN_FLIGHT = 2
_lock = threading.Lock()
_running: dict[str, int] = {}


@contextmanager
def spending(kind: str, who: str, *, most: int, per: timedelta = timedelta(minutes=1),
             now: datetime | None = None) -> Iterator[None]:
    """Do one costly ``kind`` of request for account ``who``, or raise RateLimited."""
    who = who.strip().lower()
    with _lock:
        if _running.get(who, 0) >= IN_FLIGHT:
            raise RateLimited(N_("you have other requests still being worked on; "
                                 "try again in a moment"))
        _running[who] = _running.get(who, 0) + 1
    try:
        if limits.count(f"costly_{kind}", who, per, now) >= most:
            raise RateLimited(N_("too many requests of this kind in a short time; "
                                 "try again in a minute") if per <= timedelta(minutes=1)
                              else N_("too many requests of this kind in the last hour; "
                                      "try again later"))
        limits.record(f"costly_{kind}", who, now)
        db.session.commit()  # counted even if the work fails
        yield
    finally:
        with _lock:
            left = _running.get(who, 1) - 1
            if left:
                _running[who] = left
            else:
                _running.pop(who, None)
