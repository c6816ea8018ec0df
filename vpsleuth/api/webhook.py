"""A game's chat webhook, for its game master only: read (masked), set, remove.

The address is never given back whole: it lets anyone who holds it post to the
group's chat (services/webhooks.masked).
"""

from __future__ import annotations

from ..models import GameWebhook
from ..services import webhooks
from . import bp, inputs
from .auth import caller, gm_game
from .games import GAME_ID
from .serialize import iso


def webhook_json(game_id: int, hook: GameWebhook | None) -> dict:
    """The webhook as the API shows it: masked address, format, last delivery."""
    if hook is None:
        return {"game_id": game_id, "configured": False, "url": None, "format": None,
                "last_at": None, "last_ok": None, "last_result": None}
    return {"game_id": game_id, "configured": True, "url": webhooks.masked(hook.url),
            "format": hook.format, "last_at": iso(hook.last_at) if hook.last_at else None,
            "last_ok": hook.last_ok, "last_result": hook.last_result or None}


@bp.get(f"/games/{GAME_ID}/webhook")
def get_webhook(game_id: int):
    """The game's chat webhook, its address masked, and its last delivery."""
    game = gm_game(game_id)
    return webhook_json(game.id, webhooks.of(game))


@bp.put(f"/games/{GAME_ID}/webhook")
def put_webhook(game_id: int):
    """Set or change the chat webhook: an https address on the public internet (audited)."""
    game = gm_game(game_id)
    body = inputs.json_object({"url", "format"}, {"url", "format"})
    url = inputs.line(body["url"], "url", webhooks.MAX_URL)
    fmt = inputs.choice(body["format"], "format", webhooks.WEBHOOK_FORMATS)
    return webhook_json(game.id, webhooks.set_webhook(game, url, fmt, actor=caller().actor))


@bp.delete(f"/games/{GAME_ID}/webhook")
def delete_webhook(game_id: int):
    """Remove the chat webhook (audited); a game without one answers the same."""
    game = gm_game(game_id)
    webhooks.clear_webhook(game, actor=caller().actor)
    return webhook_json(game.id, None)
