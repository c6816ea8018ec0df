"""The game told afterwards: GM at any time, the game's players only after the end."""

from __future__ import annotations

from flask import current_app

from ..services import costly, stories, story
from ..services.errors import NotFound
from . import bp
from .auth import caller, visible_game
from .games import GAME_ID


@bp.get(f"/games/{GAME_ID}/story")
def get_story(game_id: int):
    """What the public record proved, round by round, gem by gem, tip by tip."""
    game = visible_game(game_id)
    if not story.may_read(caller().viewer, game):
        # As for a foreign game: a running game's story does not exist for its players.
        raise NotFound(f"game {game_id} has not ended; its story is told afterwards")
    with costly.spending("story", caller().viewer.email,
                         most=current_app.config["COSTLY_PER_MINUTE"]):
        state, told = stories.current(game)
    if told is not None:
        return told
    # 202 either way: told seconds from now, or (failed) not at all; the body says which.
    retry = None if state == "failed" else 3
    headers = {"Retry-After": str(retry)} if retry is not None else {}
    return {"game_id": game.id, "state": state, "retry_after": retry}, 202, headers
