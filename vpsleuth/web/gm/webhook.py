"""The chat webhook on the GM's game page: save, remove, send a test message.

The address is shown to the game's GM alone, and only masked once saved
(services/webhooks.masked): it lets anyone who holds it post to the group's chat.
"""

from __future__ import annotations

from flask import redirect, request, url_for

from ...extensions import db
from ...i18n import N_
from ...models import WEBHOOK_FORMATS
from ...notices import webhook as channel
from ...services import webhooks
from ...services.errors import ServiceError
from . import bp
from .forms import InviteForm
from .game_page import game_page
from .helpers import actor, gm_game, refused, say

FORMAT_NAMES = {"discord": "Discord", "slack": "Slack", "mattermost": "Mattermost",
                "matrix": "Matrix"}  # hookshot's generic webhooks (docs/webhooks.md)


def _back(game_id: int):
    return redirect(url_for("gm.game", game_id=game_id) + "#webhook")


@bp.post("/games/<int:game_id>/webhook")
def save_webhook(game_id: int):
    """Set or change the game's chat webhook (audited; the address is checked first)."""
    game = gm_game(game_id)
    try:
        webhooks.set_webhook(game, request.form.get("url", ""), request.form.get("format", ""),
                             actor=actor())
    except ServiceError as exc:
        # The page again with what the GM typed, and why it was refused.
        return game_page(game, InviteForm(language=game.language), refused(exc),
                         webhook_typed=(request.form.get("url", ""),
                                        request.form.get("format", "")))
    say(N_("Saved: the chat webhook. Send a test message to see that it works."))
    return _back(game.id)


@bp.post("/games/<int:game_id>/webhook/remove")
def remove_webhook(game_id: int):
    """Remove the game's chat webhook (audited); its messages not sent yet are dropped."""
    game = gm_game(game_id)
    if webhooks.clear_webhook(game, actor=actor()):
        say(N_("The chat webhook is removed."))
    else:
        say(N_("This game has no chat webhook."))
    return _back(game.id)


@bp.post("/games/<int:game_id>/webhook/test")
def test_webhook(game_id: int):
    """Queue a test message to the chat; the next run of the scheduler sends it."""
    game = gm_game(game_id)
    try:
        channel.queue_test(game)
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    db.session.commit()
    say(N_("A test message is on its way; its result shows here within a minute."))
    return _back(game.id)


@bp.context_processor
def webhook_helpers() -> dict:
    """The game's webhook and its masked address, for the game page's section."""
    return {"game_webhook": webhooks.of, "masked_webhook": webhooks.masked,
            "webhook_formats": [(f, FORMAT_NAMES[f]) for f in WEBHOOK_FORMATS]}
