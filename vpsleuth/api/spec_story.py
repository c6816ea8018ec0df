"""The schemas of the game told afterwards (GET /games/{game_id}/story), for openapi.json."""

from __future__ import annotations

from .spec_schemas import BOOL, GEM, ID, INT, LOCATION, STRING, array, nullable, obj, ref

NUMBER = {"type": "number"}
BITS = {"type": "number", "description": "bits (log2)"}
CODES = {"type": "string", "description": "the question as placeholder:attribute codes, "
                                          "e.g. 'E:BO'"}

STORY_SCHEMAS: dict[str, dict] = {
    "StoryPending": obj({
        "game_id": ID,
        "state": {"type": "string", "enum": ["queued", "computing", "failed"]},
        "retry_after": nullable({**INT, "description": "seconds; null when failed"}),
    }, description="The story is not told yet (or could not be)."),
    "Story": obj({
        "game_id": ID, "game": STRING, "final": BOOL,
        "after_round": INT, "start_bits": BITS,
        "complete": {**BOOL, "description": "false when the time for the costly parts ran "
                                            "out; what is missing is null"},
        "rounds": array(ref("StoryRound")),
        "gems": array(ref("StoryGem")),
        "players": nullable(array(ref("StoryPlayer"))),
    }, description="What the public record proved, round by round. For the game's game "
                   "master at any time; for its players only after the game has ended."),
    "StoryRound": obj({
        "number": INT, "bits_left": BITS,
        "count": {**NUMBER, "description": "distributions consistent with the record"},
        "exact": BOOL, "revealed_bits": BITS,
        "certain": {**INT, "description": "gems whose place the record proves"},
        "newly_certain": array(GEM),
        "questions": array(ref("StoryQuestion")),
        "possible": {"type": "object", "propertyNames": GEM,
                     "additionalProperties": {"type": "string", "pattern": "^[A-GX]*$"},
                     "description": "each gem's possible places after the round (stories "
                                    "told before this was kept lack it)"},
        "best": nullable(ref("StoryBestQuestion")),
    }, optional=("possible",)),
    "StoryQuestion": obj({
        "question": CODES, "text": STRING, "asked_by": nullable(STRING), "answer": INT,
        "revealed_bits": nullable({**BITS, "description": "log2 1/P(answer), before the "
                                                          "round"}),
        "expected_bits": nullable({**BITS, "description": "the question's expected "
                                                          "information"}),
    }),
    "StoryBestQuestion": obj({"question": CODES, "text": STRING, "expected_bits": BITS},
                             description="the most revealing question on the state before "
                                         "the round"),
    "StoryGem": obj({
        "gem": GEM, "certain_in_round": nullable(INT), "location": nullable(LOCATION),
        "because": nullable(array(ref("StoryProof"))),
    }),
    "StoryProof": obj({"round": INT, "asked_by": nullable(STRING), "answer": INT,
                       "question": CODES, "text": STRING},
                      description="one of a smallest set of that round's answers which, "
                                  "with every earlier answer, prove the gem's place"),
    "StoryPlayer": obj({
        "player": STRING, "safe_tips": INT, "guesses": INT, "right_guesses": INT,
        "wrong_guesses": INT, "left_on_table": INT, "safe_points": INT, "guess_points": INT,
        "points_left": INT,
    }),
}
