"""The schemas of a person's data and of the ratings (api/record.py), for openapi.json."""

from __future__ import annotations

from .spec_schemas import BOOL, ID, INT, STRING, TIME, array, nullable, obj, ref

NUMBER = {"type": "number"}

RECORD_SCHEMAS: dict[str, dict] = {
    "PersonalData": obj({
        "format": {"type": "string", "const": "vpsleuth-personal-data/1"},
        "exported_at": TIME, "address": STRING,
        "scope": {"type": "string", "enum": ["account", "one game"]},
        "games": {"type": "object", "additionalProperties": STRING,
                  "description": "game id -> name, for the seats in the export"},
        "tables": {"type": "object", "additionalProperties": array({"type": "object"}),
                   "description": "table name -> every row about the person, column by "
                                  "column (hashes of tokens and nonces of links left out)"},
    }, description="Everything stored about the caller."),
    "DeleteInput": obj({
        "confirm": {"type": "string", "enum": ["yes"]},
        "successor_id": {**ID, "description": "another game master of this site, who takes "
                                              "the caller's games that have not ended"},
    }, optional=("successor_id",)),
    "AccountDeleted": obj({
        "deleted": BOOL, "withdrawn_from": array(STRING), "seats_kept": array(STRING),
        "handed_over": array(STRING), "without_game_master": array(STRING),
    }),
    "Leaderboard": obj({
        "model": STRING, "page": INT, "per_page": INT, "total": INT,
        "players": array(ref("RatedPlayer")),
    }, description="Ratings (OpenSkill Plackett-Luce ordinal: mu - 3 sigma) from rated "
                   "games; people who hide themselves are left out."),
    "RatedPlayer": obj({"profile_id": ID, "name": STRING, "place": INT, "rating": NUMBER,
                        "games": INT}),
    "RatingHistory": obj({
        "profile_id": ID, "name": STRING, "rating": NUMBER, "games": INT, "place": INT,
        "history": array(ref("RatedGame")),
    }),
    "RatedGame": obj({
        "game_id": nullable({**ID, "description": "null for a game not in the archive"}),
        "game": nullable(STRING), "at": TIME, "rank": INT, "players": INT, "rating": NUMBER,
        "change": NUMBER,
    }),
}
