"""Reply keys: a per-player, per-game signature in the Reply-To address.

A player replies to ``vpsleuth+12.k3j5...@host``; the key proves which player
of which game is writing. The From address alone is never trusted. When the
player's address changes, the key changes too: the old mailbox's replies are
no longer matched.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Callable
from functools import lru_cache

from flask import current_app

from ..extensions import db
from ..models import Player

_KEY = re.compile(r"\+(\d{1,12})\.([a-z2-7]{16})@", re.IGNORECASE)


def _message(player: Player) -> str:
    """What a player's key signs; the generation rises when the player's address changes.

    Generation 0 signs what keys always signed, so mails sent before
    generations existed can still be answered.
    """
    generation = player.key_generation or 0
    return f"reply:{player.game_id}:{player.id}" + (f":{generation}" if generation else "")


@lru_cache(maxsize=1 << 14)
def _keyed(secret: str, message: str) -> str:
    """The first 16 base32 characters of the HMAC: those of its first 10 bytes.

    Kept for the next mail to the same player (a round writes two to each).
    """
    digest = hmac.new(secret.encode(), message.encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:10]).decode().lower()


def forget() -> None:
    """Compute every key afresh from now on (for benchmarks, and a changed SECRET_KEY
    needs nothing: it is part of what a kept key is looked up by)."""
    _keyed.cache_clear()


def _signature_of(player: Player) -> str:
    return _keyed(current_app.config["SECRET_KEY"], _message(player))


def reply_address(player: Player) -> str:
    """The Reply-To address for mails to this player: ``local+KEY@domain``."""
    return reply_addresses()(player)


def reply_addresses() -> Callable[[Player], str]:
    """reply_address() for the many players of one batch of mails: the settings read once."""
    secret = current_app.config["SECRET_KEY"]
    local, _, domain = current_app.config["REPLY_ADDRESS"].partition("@")

    def address(player: Player) -> str:
        return f"{local}+{player.id}.{_keyed(secret, _message(player))}@{domain}"

    return address


def player_for_addresses(addresses: list[str]) -> Player | None:
    """The player whose valid reply key appears in any of these addresses."""
    for address in addresses:
        for m in _KEY.finditer(address + "@" if "@" not in address else address):
            player = db.session.get(Player, int(m.group(1)))
            if player and hmac.compare_digest(m.group(2).lower(), _signature_of(player)):
                return player
    return None


def has_reply_key_shape(addresses: list[str]) -> bool:
    """True if an address looks like it carries a key (valid or forged)."""
    return any(_KEY.search(a) for a in addresses)
