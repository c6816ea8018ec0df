"""Threads: the headers that put each mail we send into its conversation.

* **A reply** (the confirmation of a mailed turn, a refusal, "could not match
  your mail", the over-limit notice) answers one received mail, as RFC 5322
  3.6.4 says: ``In-Reply-To`` its Message-ID, ``References`` its References (or
  its single In-Reply-To) and its Message-ID, the subject "Re: " and theirs;
  and ``Auto-Submitted: auto-replied`` (RFC 3834), so that a responder at the
  other end does not answer it.
* **Every other mail to a player of a game** (invitation, round mails,
  reminders, reports) carries ``Auto-Submitted: auto-generated`` and references
  one Message-ID that stands for that player's game. No mail has it, as with
  GitHub's notifications: clients that thread by References (Thunderbird,
  Apple Mail, mutt, notmuch) show a player's mails of one game as one thread,
  and a player's reply to any of them joins it.

The pipeline says which mail is being answered (``answering()``, a context
variable, so that services.turns need not carry it to the confirmation); the
functions that queue replies ask ``answered()``.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import re
import unicodedata
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from email.message import Message
from email.utils import parseaddr
from functools import lru_cache

from flask import current_app

from ..models import Game, Player
from .mime import header, parse_headers

# A Message-ID as we pass it on: printable ASCII without spaces or angle brackets inside.
_MSGID = re.compile(r"<[!-;=?-~]{1,250}>")
# References kept from the answered mail: the first (the thread's root) and the latest.
MAX_REFERENCES = 12
# "Re:" and its translations, as mail clients write them (also "Re[2]:", "AW (2):").
_REPLY_PREFIX = re.compile(
    r"^\s*(?:re|aw|antw|antwort|sv|vs|odp|ynt|res|rif|ref|r|réf|απ|на|回复|回覆|答复)"
    r"\s*(?:\[\d+\]|\(\d+\))?\s*[:：]", re.IGNORECASE)
SUBJECT_LIMIT = 250  # what is kept of a subject we answer (the column holds 300)
_LOCAL = ("", "localhost", "localhost.localdomain")
# Characters a subject line must not carry: controls (CR, LF, ...), line and
# paragraph separators, lone surrogates.
_BREAKING = ("Cc", "Cs", "Zl", "Zp")


@dataclass(frozen=True)
class Answered:
    """What a reply needs of the mail it answers."""

    message_id: str | None
    references: tuple[str, ...]  # the References of our reply, its Message-ID last
    subject: str  # cleaned; "" if it had none

    @classmethod
    def of(cls, msg: Message) -> Answered:
        """From a received message; hostile headers give fewer references, never bad ones."""
        own = _ids(header(msg, "Message-ID"))
        message_id = own[0] if own else None
        earlier = _ids(header(msg, "References"))
        if not earlier:
            in_reply_to = _ids(header(msg, "In-Reply-To"))
            earlier = in_reply_to if len(in_reply_to) == 1 else []
        chain = list(dict.fromkeys(earlier + ([message_id] if message_id else [])))
        if len(chain) > MAX_REFERENCES:
            chain = chain[:1] + chain[-(MAX_REFERENCES - 1):]
        return cls(message_id, tuple(chain), clean_subject(header(msg, "Subject")))

    def headers(self) -> dict[str, str]:
        """In-Reply-To and References for our reply (none if the mail had no Message-ID)."""
        found = {"References": " ".join(self.references)} if self.references else {}
        if self.message_id:
            found["In-Reply-To"] = self.message_id
        return found

    def reply_subject(self, ours: str) -> str:
        """'Re: ' and their subject, unless it says Re: (AW:, SV:, ...) already; ours if
        theirs was empty."""
        if not self.subject:
            return ours
        return self.subject if _REPLY_PREFIX.match(self.subject) else f"Re: {self.subject}"


_answering: ContextVar[Callable[[], Answered] | None] = ContextVar("answering", default=None)


@contextlib.contextmanager
def answering(raw: bytes) -> Iterator[None]:
    """While a received mail (``raw``) is handled: the replies queued meanwhile answer it.

    Its headers are read only if a reply is queued.
    """
    @lru_cache(maxsize=1)
    def answered_mail() -> Answered:
        try:
            return Answered.of(parse_headers(raw))
        except Exception:  # headers past reading: answer all the same, outside the thread
            return Answered(None, (), "")

    token = _answering.set(answered_mail)
    try:
        yield
    finally:
        _answering.reset(token)


def answered() -> Answered | None:
    """The received mail being answered now, or None (not handling a received mail)."""
    found = _answering.get()
    return found() if found is not None else None


def headers(*, auto: bool, player: Player | None, game: Game | None,
            reply: Answered | None, reply_to: str | None = None,
            domain: str | None = None) -> dict[str, str]:
    """The headers an outbox mail carries besides From, To, Subject and Message-ID."""
    if reply is not None:
        found = {"Auto-Submitted": "auto-replied", **reply.headers()}
    else:
        found = {"Auto-Submitted": "auto-generated"} if auto else {}
        if player is not None and game is not None:
            found["References"] = game_thread(game, player, domain)
    if reply_to:
        found["Reply-To"] = reply_to
    return found


def game_thread(game: Game, player: Player, domain: str | None = None) -> str:
    """The Message-ID that stands for one player's game, which every mail of it references.

    Stable for the game, different for every player (each has a thread of
    their own), and keyed with SECRET_KEY and the game's creation time, so that
    a database started afresh does not join a new game to an old one's thread.
    """
    return game_threads(game, domain)(player.id)


def game_threads(game: Game, domain: str | None = None) -> Callable[[int], str]:
    """game_thread() by player id for the players of one game: its common part once."""
    created = int(game.created_at.timestamp()) if game.created_at else 0
    key = _game_key(current_app.config["SECRET_KEY"], game.id, created)
    head, tail = f"<game-{game.id}.player-", f".{key}@{domain or message_domain()}>"
    return lambda player_id: f"{head}{player_id}{tail}"


@lru_cache(maxsize=256)
def _game_key(secret: str, game_id: int, created: int) -> str:
    return hmac.new(secret.encode(), f"thread:{game_id}:{created}".encode(),
                    hashlib.sha256).hexdigest()[:20]


def message_domain() -> str:
    """The domain of our Message-IDs: that of our own address.

    REPLY_ADDRESS, else the address of MAIL_DEFAULT_SENDER when REPLY_ADDRESS is
    still on localhost; never the machine's name.
    """
    config = current_app.config
    return _domain(config.get("REPLY_ADDRESS") or "", str(config.get("MAIL_DEFAULT_SENDER") or ""))


@lru_cache(maxsize=8)
def _domain(reply_address: str, sender: str) -> str:
    for address in (reply_address, parseaddr(sender)[1]):
        domain = address.rpartition("@")[2].strip().lower()
        if domain not in _LOCAL and _MSGID.fullmatch(f"<x@{domain}>"):
            return domain
    return "localhost"


def clean_subject(subject: str) -> str:
    """A received subject made fit for ours: one line, no control characters, not too long."""
    text = "".join(" " if unicodedata.category(c) in _BREAKING else c for c in subject)
    return " ".join(text.split())[:SUBJECT_LIMIT]


def _ids(value: str) -> list[str]:
    return _MSGID.findall(value)
