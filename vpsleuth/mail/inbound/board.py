"""A mail to a player's board address (keys.board_address) posts on the game's board.

The pipeline (pipeline.py) has stored the mail verbatim and found the player by
the board key; here its text (the text part, or the text the pipeline derives
from an HTML-only mail) goes to services.board.post with channel "email", which
strips the quoted original and the sign-off as for a turn and checks every limit.
The player is always answered: "posted", with the post as it stands, or why
nothing was posted (too large, too long, the hourly limit, an ended game, ...).
"""

from __future__ import annotations

from datetime import datetime

from flask import current_app

from ...extensions import db
from ...i18n import N_, translate
from ...models import InboundMessage, Player
from ...services import board as board_service
from ...services.errors import ServiceError
from .. import board as board_mail
from .. import mime

_REASONS = {
    "too_large": N_("Your mail was too large ({size} KiB; at most {limit} KiB are read), so "
                    "we did not read it; a post may be at most {chars} characters. Please "
                    "send your post again as plain text, without attachments."),
    "too_deep": N_("Your mail was built of parts inside parts more than {depth} levels deep, "
                   "so we did not read it. Please send your post again as plain text."),
    "no_text": N_("Your mail had no text we could read. Please write your post into the "
                  "mail itself, not into an attachment."),
}


def refuse(player: Player, key: str, **values: object) -> str:
    """Tell the player why their mail was not posted (the caller commits); returns the
    reason in English, for the stored message's error column."""
    board_mail.answer(player, reason=translate(player.language, _REASONS[key]).format(
        **values))
    return translate("en", _REASONS[key]).format(**values)


def too_large(player: Player, size: str) -> str:
    """The refusal of a mail over INBOUND_MAX_BYTES (only its first bytes are stored)."""
    limit = int(current_app.config["INBOUND_MAX_BYTES"])
    return refuse(player, "too_large", size=int(size) // 1024 if size.isdigit() else "?",
                  limit=limit // 1024, chars=f"{board_service.MAX_LENGTH:,}")


def post(row: InboundMessage, player: Player, msg, now: datetime, finish) -> None:
    """Post the mail's text; ``finish(row, status, error, now, commit=...)`` records the
    outcome (the pipeline's own, so the stored message reads as every other)."""
    body = mime.body_text(msg)
    if body is None:
        return finish(row, "refused", refuse(player, "no_text") + " (answered the player)",
                      now)
    row_id, player_id, game_id = row.id, player.id, player.game_id
    row.body_text = board_service.clean_body(body, "email", board_service.names_of(player))
    finish(row, "applied", "posted on the board", now, commit=False)
    try:
        posted = board_service.post(player.game, body, player=player, channel="email",
                                    now=now)
    except ServiceError as exc:
        db.session.rollback()
        player, row = db.session.get(Player, player_id), db.session.get(InboundMessage, row_id)
        row.game_id, row.player_id = game_id, player_id
        board_mail.answer(player, reason=exc.sentence(player.language))
        return finish(row, "refused", f"board post refused: {exc.message}; answered the "
                      "player", now)
    board_mail.answer(db.session.get(Player, player_id), post=posted)
    db.session.commit()
    return None
