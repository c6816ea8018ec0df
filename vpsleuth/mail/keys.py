"""Reply keys: a per-player, per-game signature in the Reply-To address.

A player replies to ``vpsleuth+12.k3j5...@host``; the key proves which player
of which game is writing. The From address alone is never trusted. When the
player's address changes, the key changes too: the old mailbox's replies are
no longer matched.

Board keys (issue 20): ``vpsleuth+b12.m4q7...@host`` posts on the game's board.
It signs another message ("board:..." instead of "reply:..."), so a reply key
is never a board key nor the other way round, and it follows the same
generation, so a replaced player's or an old address's board key stops too.
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
_BOARD_KEY = re.compile(r"\+b(\d{1,12})\.([a-z2-7]{16})@", re.IGNORECASE)


def _message(player: Player, purpose: str = "reply") -> str:
    """What a player's key signs; the generation rises when the player's address changes.

    Generation 0 signs what keys always signed, so mails sent before
    generations existed can still be answered.
    """
    generation = player.key_generation or 0
    return f"{purpose}:{player.game_id}:{player.id}" + (f":{generation}" if generation else "")


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


def _signature_of(player: Player, purpose: str = "reply") -> str:
    return _keyed(current_app.config["SECRET_KEY"], _message(player, purpose))


def reply_address(player: Player) -> str:
    """The Reply-To address for mails to this player: ``local+KEY@domain``."""
    return reply_addresses()(player)


def reply_addresses() -> Callable[[Player], str]:
    """reply_address() for the many players of one batch of mails: the settings read once."""
    return _addresses("", "reply")


def _addresses(mark: str, purpose: str) -> Callable[[Player], str]:
    """Keyed addresses ``local+{mark}ID.KEY@domain`` signing ``purpose``, settings read once."""
    secret = current_app.config["SECRET_KEY"]
    local, _, domain = current_app.config["REPLY_ADDRESS"].partition("@")

    def address(player: Player) -> str:
        return f"{local}+{mark}{player.id}.{_keyed(secret, _message(player, purpose))}@{domain}"

    return address


def board_address(player: Player) -> str:
    """The player's address for posting on the game's board: ``local+bID.KEY@domain``."""
    return board_addresses()(player)


def board_addresses() -> Callable[[Player], str]:
    """board_address() for the many players of one batch of mails."""
    return _addresses("b", "board")


def _keyed_player(addresses: list[str], pattern: re.Pattern, purpose: str) -> Player | None:
    for address in addresses:
        for m in pattern.finditer(address + "@" if "@" not in address else address):
            player = db.session.get(Player, int(m.group(1)))
            if player and hmac.compare_digest(m.group(2).lower(),
                                              _signature_of(player, purpose)):
                return player
    return None


def player_for_addresses(addresses: list[str]) -> Player | None:
    """The player whose valid reply key appears in any of these addresses."""
    return _keyed_player(addresses, _KEY, "reply")


def board_player_for_addresses(addresses: list[str]) -> Player | None:
    """The player whose valid board key appears in any of these addresses."""
    return _keyed_player(addresses, _BOARD_KEY, "board")


def has_reply_key_shape(addresses: list[str]) -> bool:
    """True if an address looks like it carries a key (valid or forged, reply or board)."""
    return any(_KEY.search(a) or _BOARD_KEY.search(a) for a in addresses)


def retired_key_player(addresses: list[str]) -> Player | None:
    """The player whose reply key of an earlier generation appears in these addresses:
    one the player's old address was sent before it changed or the seat was handed on."""
    secret = current_app.config["SECRET_KEY"]
    for address in addresses:
        for m in _KEY.finditer(address + "@" if "@" not in address else address):
            player = db.session.get(Player, int(m.group(1)))
            for generation in range(player.key_generation or 0) if player else ():
                message = f"reply:{player.game_id}:{player.id}" + (
                    f":{generation}" if generation else "")
                if hmac.compare_digest(m.group(2).lower(), _keyed(secret, message)):
                    return player
    return None
