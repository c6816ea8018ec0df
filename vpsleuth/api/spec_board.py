"""The game board's part of openapi.json: its paths and schemas (api/board.py)."""

from __future__ import annotations

from .inputs import MAX_ID
from .spec_paths import op
from .spec_schemas import obj, ref

_POST_ID = {"name": "post_id", "in": "path", "required": True,
            "description": "the post's id (see the board)",
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID}}
_BEFORE = {"name": "before", "in": "query", "required": False,
           "description": "the next page: posts older than this id (next_before of the "
                          "page before); left out, the first page, announcements pinned on top",
           "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID}}
_SIZE = {"name": "size", "in": "query", "required": False,
         "description": "posts a page besides the pinned announcements (default 20)",
         "schema": {"type": "integer", "minimum": 1, "maximum": 100}}

BOARD_PARAMETERS = {"PostId": _POST_ID, "Before": _BEFORE, "Size": _SIZE}

_GP = ("GameId", "PostId")
BOARD_PATHS = {
    "/games/{game_id}/board": {
        "get": op("getBoard", "The game's board, newest first, paged (players and the game "
                  "master; no board in practice games)", "Board",
                  params=("GameId", "Before", "Size"), errors=(400, 404), tag="board"),
        "post": op("postOnBoard", "Post on the board (plain text, at most 2,000 characters, "
                   "so many posts an hour); announce: the game master's pinned announcement, "
                   "mailed to every player", "BoardPost", status=201, params=("GameId",),
                   body="BoardPostInput", errors=(400, 403, 404, 409, 429), tag="board"),
    },
    "/games/{game_id}/board/{post_id}/delete": {"post": op(
        "deleteBoardPost", "Delete one's own post: its text goes, the post stays as deleted",
        "BoardPost", params=_GP, body="Empty", body_required=False, errors=(400, 403, 404),
        tag="board")},
    "/games/{game_id}/board/{post_id}/hide": {"post": op(
        "hideBoardPost", "Hide a post (the game master): kept, audited, shown as hidden",
        "BoardPost", params=_GP, body="Empty", body_required=False, errors=(400, 403, 404),
        tag="board")},
}

BOARD_SCHEMAS = {
    "BoardPost": obj({
        "id": {"type": "integer"},
        "author": {"type": "string", "description": "the name posted under; the game master; "
                                                    "former player N after a person left"},
        "by_game_master": {"type": "boolean"},
        "pinned": {"type": "boolean", "description": "an announcement of the game master"},
        "created_at": {"type": "string", "format": "date-time"},
        "state": {"enum": ["shown", "hidden", "deleted"]},
        "body": {"type": ["string", "null"], "description": "plain text, never HTML; null "
                 "when deleted, or hidden (the game master still reads it)"},
        "mine": {"type": "boolean"},
    }),
    "Board": obj({
        "game_id": {"type": "integer"},
        "posts": {"type": "array", "items": ref("BoardPost")},
        "next_before": {"type": ["integer", "null"],
                        "description": "before= for the next page; null: no older posts"},
    }),
    "BoardPostInput": obj({
        "body": {"type": "string", "minLength": 1, "maxLength": 2000,
                 "pattern": r"[^\s\x00-\x08\x0b-\x1f\x7f]",
                 "description": "plain text, at least one character that is not blank: at "
                 "most 2,000 characters once trimmed (longer is refused with its length)"},
        "announce": {"type": "boolean", "description": "game masters only: pin it and mail "
                     "it to every player"},
    }, optional=("announce",)),
}
