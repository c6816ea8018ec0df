"""The OpenAPI 3.1 document of /api/v1, served at /api/v1/openapi.json."""

from __future__ import annotations

import copy
from functools import cache

from . import PREFIX, bp
from .spec_board import BOARD_PARAMETERS, BOARD_PATHS, BOARD_SCHEMAS
from .spec_paths import PARAMETERS, PATHS, RESPONSES
from .spec_record import RECORD_SCHEMAS
from .spec_schemas import SCHEMAS
from .spec_story import STORY_SCHEMAS
from .spec_webhook import WEBHOOK_PATHS, WEBHOOK_SCHEMAS

DESCRIPTION = """\
The moderator of play-by-mail games of VP-Sleuth, for programs.

Authenticate with `Authorization: Bearer vps_...`. A game master's token acts for
the GM's account; a player's token acts for that player in that one game.
Tokens are made and revoked on the account pages.

Errors are always `{"error": {"code", "message", "details"}}`; `code` is stable,
`message` is for people. A refused turn (422) lists every bad line in `details`.
Nothing in this API reveals the distribution or which tips were right before a
game ends; the final round's report reveals the distribution and salt.
"""


@cache
def document() -> dict:
    """The whole document (built once; callers get their own copy)."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "vpsleuth API", "version": "1.0.0", "description": DESCRIPTION},
        "servers": [{"url": PREFIX}],
        "security": [{"bearerAuth": []}],
        "tags": [{"name": "meta"}, {"name": "games"}, {"name": "turns"},
                 {"name": "notebook"}, {"name": "absences"}, {"name": "game master"},
                 {"name": "open games"},
                 {"name": "my data"}, {"name": "ratings"}, {"name": "board"}],
        "paths": {**PATHS, **BOARD_PATHS, **WEBHOOK_PATHS},
        "components": {
            "securitySchemes": {"bearerAuth": {
                "type": "http", "scheme": "bearer", "bearerFormat": "vps_<random>",
                "description": "a player's or game master's API token"}},
            "schemas": {**SCHEMAS, **STORY_SCHEMAS, **RECORD_SCHEMAS, **BOARD_SCHEMAS,
                        **WEBHOOK_SCHEMAS},
            "parameters": {**PARAMETERS, **BOARD_PARAMETERS},
            "responses": RESPONSES,
        },
    }


@bp.get("/openapi.json", endpoint="openapi_document")
def openapi_document():
    """The document itself; no token needed."""
    return copy.deepcopy(document())
