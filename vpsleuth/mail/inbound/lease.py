"""Who processes the IMAP mailbox: one holder at a time, across threads and processes.

The IMAP watcher holds the lease while it runs and renews it every third of
IMAP_LEASE_SECONDS; a poll (the scheduler's ``poll-imap`` job, ``vpsleuth mail
poll``) takes it for one pass and gives it back. A holder that stops renewing
(killed, hung, cut off from the database) loses it IMAP_LEASE_SECONDS after its
last renewal, and the next taker gets it. Two processes therefore never fetch
and store the same message at the same time, whichever entrance started them.
The lease itself is services/leases.py.
"""

from __future__ import annotations

from ...services import leases
from ...services.leases import new_holder

__all__ = ["NAME", "MailboxLease", "current_holder", "new_holder"]
NAME = "imap-mailbox"


class MailboxLease(leases.Lease):
    """The right to process the IMAP mailbox, held by ``holder`` for ``seconds`` at a time."""

    def __init__(self, holder: str, seconds: float):
        super().__init__(NAME, holder, seconds)


def current_holder() -> str:
    """Who holds the mailbox lease now (renewed within no particular time); "" if nobody."""
    return leases.current_holder(NAME)
