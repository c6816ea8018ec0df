"""Inbound mail: one pipeline, three entrances (IMAP polling, MTA pipe, SMTP receiver).

``ingest``/``receive`` store and process one message, ``reprocess`` runs a
stored one again, ``poll_imap(app)`` is the polling job. See docs/mail-inbound.md.
"""

from .imap import PollResult, poll_imap
from .pipeline import Received, ingest, process, receive, recent, reprocess
from .store import StoreError, store

__all__ = ["PollResult", "Received", "StoreError", "ingest", "poll_imap", "process",
           "receive", "recent", "reprocess", "store"]
