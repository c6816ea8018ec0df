"""The List-Unsubscribe headers (RFC 2369, with RFC 8058's one-click POST) of a player's mail.

A round mail, a reminder and the board's mails (each post, the digest) carry

    List-Unsubscribe: <https://HOST/unsubscribe/TOKEN>
    List-Unsubscribe-Post: List-Unsubscribe=One-Click

where TOKEN is signed for that player and that kind of mail
(services/unsubscribe.py). A mail program's "Unsubscribe" button POSTs
``List-Unsubscribe=One-Click`` to the link, and that kind of mail is off. The
headers are each mail's own (its headers JSON in the outbox), never the body,
which a round's mail shares between players. No ``mailto:`` link: the inbound
pipeline reads turns and board posts, and an address that could not act on
an unsubscribe request would be a promise not kept.
"""

from __future__ import annotations

from collections.abc import Callable

from ..models import Player
from ..services import unsubscribe

ONE_CLICK = "List-Unsubscribe=One-Click"


def headers(kind: str, player: Player | None) -> dict[str, str]:
    """The two headers of a mail of outbox ``kind`` to ``player``; none for other mails."""
    make = for_kind(kind)
    return make(player) if make is not None and player is not None else {}


def turned_off_by(kind: str) -> str | None:
    """What the link in a mail of outbox ``kind`` turns off (one of
    services.unsubscribe.KINDS), or None: such a mail has no link."""
    return unsubscribe.MAIL_KINDS.get(kind)


def for_kind(kind: str) -> Callable[[Player], dict[str, str]] | None:
    """headers() for the many players of one batch of mails of ``kind`` (the base URL read
    once); None for a kind no link turns off (reports, confirmations, announcements...)."""
    letting_go = turned_off_by(kind)
    if letting_go is None:
        return None
    link = unsubscribe.links(letting_go)
    return lambda player: {"List-Unsubscribe": f"<{link(player)}>",
                           "List-Unsubscribe-Post": ONE_CLICK}
