"""Working on while the database is briefly away (a failover, a restart, no free slot).

Only a transaction whose outcome can be read back afterwards is tried again: a
turn (its version's status says whether the applying commit landed,
services/turns.py) and a mail's "sent" mark (conditional, so marking it twice
changes nothing, mail/outbox.py). Anything else fails as it did.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from ..extensions import db

log = logging.getLogger(__name__)
FIRST_WAIT = 0.1  # seconds; doubled after each try, at most 1 s apart
T = TypeVar("T")


def connection_lost(exc: DBAPIError) -> bool:
    """A lost or refused connection (server gone, read-only standby), not a wrong statement."""
    return exc.connection_invalidated or isinstance(exc, OperationalError | InterfaceError)


def retried(action: Callable[[], T], *, seconds: float, what: str) -> T:
    """``action()``, one whole transaction that commits, tried again for ``seconds``
    while the database is away; ``action`` must be safe to run twice."""
    wait, give_up = FIRST_WAIT, time.monotonic() + seconds
    while True:
        try:
            return action()
        except DBAPIError as exc:
            if not connection_lost(exc) or time.monotonic() + wait > give_up:
                raise
            log.warning("%s: the database went away (%s); trying again in %.1f s",
                        what, exc.__class__.__name__, wait)
        with contextlib.suppress(DBAPIError):
            db.session.rollback()
        time.sleep(wait)
        wait = min(wait * 2, 1.0)
