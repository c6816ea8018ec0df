"""Mail that lets go: a signed link per player and kind of mail that turns it off (RFC 8058).

Every round mail, reminder and board mail carries ``List-Unsubscribe`` with a
link of this module (mail/unsubscribe.py writes the headers). A POST to it
turns that kind of mail off for that player without signing in; a GET only
asks (a mail scanner that fetches links changes nothing).

The token is signed with itsdangerous under the app's SECRET_KEY (salt
``vpsleuth-unsubscribe``, so no other signed link of the service is one) and
names the player, the kind and the player's key generation: editing it to
another player or kind breaks the signature, and once a seat is handed on or
its address changes (the generation rises, as for reply keys), the old
occupant's mails no longer turn the new one's off.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from flask import current_app
from itsdangerous import BadData, URLSafeSerializer

from ..extensions import db
from ..i18n import N_
from ..models import Player
from .board_digest import DIGEST_KIND
from .errors import Invalid, NotFound
from .links import base_url

log = logging.getLogger(__name__)
SALT = "vpsleuth-unsubscribe"
KINDS = ("round", "reminder", "board")
# The outbox kinds a link turns off, by the kind of mail they are. A GM announcement
# has none: it comes whatever the board setting says, so a link could not stop it.
MAIL_KINDS = {"round_opened": "round", "reminder": "reminder", "board_post": "board",
              DIGEST_KIND: "board"}
NOT_VALID = N_("this unsubscribe link is not valid (it may have been cut short when it was "
               "copied); you can turn mails off in your mail settings")
NO_LONGER = N_("this unsubscribe link is no longer in use: the seat's address has changed "
               "since the mail was sent; you can turn mails off in your mail settings")


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=SALT)


def token(player: Player, kind: str) -> str:
    """The signed token of ``player``'s link for ``kind`` (one of KINDS)."""
    if kind not in KINDS:
        raise ValueError(f"no unsubscribe link for {kind!r}")
    return _serializer().dumps([player.id, kind, player.key_generation or 0])


def links(kind: str) -> Callable[[Player], str]:
    """The one-click link of ``kind`` for each of many players: the base URL read once
    (it may read the database)."""
    base = base_url()
    return lambda player: f"{base}/unsubscribe/{token(player, kind)}"


def read(signed: str) -> tuple[Player, str]:
    """The player and kind a link names.

    Raises Invalid for a token that is forged, altered or cut short, NotFound for
    one signed by us whose player is gone or whose seat has changed address since.
    """
    try:
        player_id, kind, generation = _serializer().loads(signed)
    except (BadData, TypeError, ValueError):
        raise Invalid(NOT_VALID) from None
    if kind not in KINDS or not isinstance(player_id, int):
        raise Invalid(NOT_VALID)
    player = db.session.get(Player, player_id)
    if player is None or generation != (player.key_generation or 0):
        raise NotFound(NO_LONGER)
    return player, kind


def is_on(player: Player, kind: str) -> bool:
    """Whether ``player`` still gets mails of ``kind``."""
    if kind == "round":
        return player.wants_round_mail
    if kind == "reminder":
        return player.wants_reminders
    return player.board_mail != "none"


def turn_off(player: Player, kind: str) -> None:
    """Turn ``kind`` off for ``player`` and commit; nothing else of theirs changes.

    Round mails and reminders are their switches; the board's mails (each post,
    the digest) become "none". Doing it twice is the same as once.
    """
    if kind == "round":
        player.wants_round_mail = False
    elif kind == "reminder":
        player.wants_reminders = False
    elif kind == "board":
        player.board_mail = "none"
    else:
        raise ValueError(f"no unsubscribe link for {kind!r}")
    db.session.commit()
    log.info("player %d of game %d turned %s mails off by the one-click link", player.id,
             player.game_id, kind)
