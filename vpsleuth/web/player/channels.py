"""What the settings page shows of the ways notices reach a person, in one place:
mail (per game), push on their devices, and, for a GM, each game's chat webhook."""

from __future__ import annotations

from flask import current_app

from ...models import GameWebhook
from ...services import access, push, webhooks
from ...services.access import Viewer


def channels_of(viewer: Viewer) -> dict:
    """The template's values for the channels section.

    An invitation's session (one game, ``player_id`` set) sees no devices: they are
    the address's, for all its games, and a forwarded invitation must not reveal or
    change them.
    """
    scoped = viewer.player_id is not None
    return {
        "devices": [] if scoped else push.devices(viewer.email),
        "push_key": None if scoped else _public_key(),
        "chats": [] if scoped else gm_chats(viewer),
    }


def gm_chats(viewer: Viewer) -> list[tuple[int, str, GameWebhook | None]]:
    """(game id, name, its webhook or None) of each game the viewer runs, newest first."""
    if not viewer.is_gm:
        return []
    led = [g for g in access.games_of(viewer) if g.game_master_id == viewer.gm_id]
    return [(g.id, g.name, webhooks.of(g)) for g in led]


def _public_key() -> str | None:
    """The VAPID key for PushManager.subscribe; None when the operator's VAPID_PRIVATE_KEY
    cannot be read (`vpsleuth check` says why): the page then offers no push instead of
    failing, and the rest of the settings stay usable."""
    try:
        return push.vapid_public_key()
    except RuntimeError as exc:
        current_app.logger.error("no push on the settings page: %s", exc)
        return None

