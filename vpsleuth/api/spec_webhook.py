"""The chat webhook's part of openapi.json: its path and schemas (api/webhook.py)."""

from __future__ import annotations

from ..models import WEBHOOK_FORMATS
from ..services.webhooks import MAX_URL
from .spec_paths import op
from .spec_schemas import BOOL, ID, TIME, nullable, obj

_FORMAT = {"type": "string", "enum": list(WEBHOOK_FORMATS),
           "description": "the chat's JSON: discord, slack, mattermost or matrix (the "
                          "generic webhooks of matrix-hookshot)"}
_G = ("GameId",)
_ERRORS = (400, 403, 404, 409)

WEBHOOK_PATHS = {
    "/games/{game_id}/webhook": {
        "get": op("getWebhook", "The game's chat webhook (its address masked) and its last "
                  "delivery", "Webhook", params=_G, errors=(403, 404), tag="game master"),
        "put": op("putWebhook", "Set or change the chat webhook: an https address whose host "
                  "has only public internet addresses (audited)", "Webhook", params=_G,
                  body="WebhookInput", errors=_ERRORS, tag="game master"),
        "delete": op("deleteWebhook", "Remove the chat webhook (audited); its messages not "
                     "sent yet are dropped", "Webhook", params=_G, errors=(403, 404),
                     tag="game master"),
    },
}

WEBHOOK_SCHEMAS = {
    "Webhook": obj({
        "game_id": ID, "configured": BOOL,
        "url": nullable({"type": "string", "description": "masked: scheme, host and the "
                         "last characters only (the address lets anyone post to the chat)"}),
        "format": nullable(_FORMAT), "last_at": nullable(TIME),
        "last_ok": nullable(BOOL),
        "last_result": nullable({"type": "string", "description": "HTTP status or error of "
                                 "the last delivery, e.g. \"HTTP 204\""})}),
    "WebhookInput": obj({"url": {"type": "string", "minLength": 1, "maxLength": MAX_URL,
                                 "description": "the chat's incoming-webhook address"},
                         "format": _FORMAT}),
}
