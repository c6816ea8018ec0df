"""The schemas of openapi.json (OpenAPI 3.1, JSON Schema 2020-12), as data.

Every object is closed (additionalProperties: false) so the tests notice when a
response grows a field the document does not describe.
"""

from __future__ import annotations

from ..models import CHANNELS, MISSED_TURN_RULES
from ..rules import ATTRIBUTES, GEMS, LOCATIONS, PLACEHOLDERS
from ..services.games import EMAIL_PATTERN, LANGUAGES
from .inputs import MAX_ID

GEM_CODES = [g.code for g in GEMS]
ATTRIBUTE_CODES = [a.code for a in ATTRIBUTES]


def ref(name: str) -> dict:
    """A reference to a schema of the document."""
    return {"$ref": f"#/components/schemas/{name}"}


def obj(properties: dict, optional: tuple[str, ...] = (), **extra) -> dict:
    """A closed object; every property is required unless named in ``optional``."""
    schema = {"type": "object", "additionalProperties": False, "properties": properties}
    required = [p for p in properties if p not in optional]
    if required:
        schema["required"] = required
    return {**schema, **extra}


def nullable(schema: dict) -> dict:
    """The schema, or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: dict, **extra) -> dict:
    """A list of ``items``."""
    return {"type": "array", "items": items, **extra}


STRING = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}
ID = {"type": "integer", "minimum": 1}
TIME = {"type": "string", "format": "date-time"}
DATE = {"type": "string", "format": "date"}
LANGUAGE = {"type": "string", "enum": list(LANGUAGES)}
ONE_LINE = {"type": "string", "pattern": r"^[^\x00-\x1f\x7f]*\S[^\x00-\x1f\x7f]*$",
            "description": "one line: no control characters"}
EMAIL = {"type": "string", "maxLength": 254,
         "pattern": EMAIL_PATTERN.pattern.replace("\\s", "\\s\\x00-\\x1f\\x7f"),
         "description": "an email address, like name@example.org"}
GEM = {"type": "string", "enum": GEM_CODES, "description": "gem code: colour, kind, size"}
LOCATION = {"type": "string", "enum": list(LOCATIONS), "description": "A-G, or X (nobody)"}
TIPS = {"type": "object", "propertyNames": GEM, "additionalProperties": LOCATION,
        "description": "gem code -> location, e.g. {\"RD1\": \"A\", \"YO3\": \"X\"}"}
QUESTION = obj({"placeholder": {"type": "string", "enum": list(PLACEHOLDERS)},
                "attributes": array({"type": "string", "enum": ATTRIBUTE_CODES},
                                    minItems=1, maxItems=2)},
               description="How many gems with all these attributes does the placeholder "
                           "hold? Attribute codes: R B G Y (colour), D P O (kind), "
                           "1 2 3 (size); two attributes must be of different categories.")
MARKS = {"type": "object", "propertyNames": GEM,
         "additionalProperties": {"type": "object", "propertyNames": LOCATION,
                                  "additionalProperties": {"type": "string",
                                                           "enum": ["yes", "no", "maybe"]}},
         "description": "marked cells: gem code -> place -> mark, e.g. "
                        "{\"RD1\": {\"A\": \"yes\", \"X\": \"no\"}}"}
NOTES = {"type": "string", "maxLength": 20_000, "description": "free notes"}
ROUND_FIELD = {"type": "integer", "minimum": 1, "maximum": MAX_ID,
               "description": "the round this turn is meant for; refused (409) if another "
                              "round is open"}
ROUND_BRIEF = obj({"number": ID, "state": {"type": "string",
                                           "enum": ["open", "resolving", "resolved"]},
                   "deadline": TIME})
STATE = {"type": "string", "enum": ["setup", "running", "paused", "finished"]}
SUMMARY = {"id": ID, "name": STRING, "state": STATE,
           "roles": array({"type": "string", "enum": ["game_master", "player"]}),
           "open_round": nullable(ref("RoundBrief"))}
AFTER_EARLY = {"type": "string", "enum": ["calendar", "fresh"],
               "description": "after a round closed early, the next deadline keeps the "
                              "calendar, or is a fresh interval from the close"}
AID = {"type": "boolean", "description": "house rule: during the game the players' "
       "information sheet shows what the public record has ruled out (default false)"}
MISSED_TURN = {"type": "string", "enum": list(MISSED_TURN_RULES),
               "description": "house rule: a player with no turn at the deadline plays no "
                              "tips (none, the default), last round's tips (repeat), or those "
                              "only while an announced absence covers the deadline "
                              "(repeat-when-absent)"}
RULES_OUT = {"rounds": INT, "first_bonus_round": INT, "bonuses": array(INT),
             "points_right": INT, "points_wrong": INT, "early_resolution": BOOL,
             "after_early": AFTER_EARLY, "deduction_aid": AID,
             "missed_turn_rule": MISSED_TURN}
RULE_LIMITS = {"rounds": (1, 52), "first_bonus_round": (1, 52), "points_right": (1, 99),
               "points_wrong": (-99, 0)}

SCHEMAS: dict[str, dict] = {
    "Error": obj({"error": obj({
        "code": {"type": "string", "description":
                 "stable: invalid, unauthorized, invalid_token, forbidden, not_found, "
                 "method_not_allowed, too_large, wrong_state, round_closed, turn_refused, "
                 "rate_limited"},
        "message": {"type": "string", "description": (
            "for people, in the caller's language (the token owner's setting, else "
            "Accept-Language among en, de, es, else en); may change")},
        "details": {"anyOf": [{"type": "null"}, ref("FieldDetails"),
                              array(ref("LineError"))]},
    })}),
    "FieldDetails": obj({"field": {"type": "string", "description":
                                   "the request field at fault, e.g. question.placeholder; "
                                   "empty for the body as a whole"}}),
    "LineError": obj({"line": ID, "text": STRING, "message": STRING, "hint": STRING},
                     description="one bad line of a turn (for structured turns: of the "
                                 "turn-language text built from it)"),
    "RoundBrief": ROUND_BRIEF,
    "Round": obj({**ROUND_BRIEF["properties"], "opened_at": TIME,
                  "resolved_at": nullable(TIME)}),
    "Me": obj({
        "kind": {"type": "string", "enum": ["game_master", "player"]},
        "name": STRING, "email": STRING,
        "game_master_id": nullable(ID),
        "player": nullable(obj({"id": ID, "name": STRING, "game_id": ID})),
        "token": obj({"id": ID, "label": STRING, "created_at": TIME}),
    }),
    "GameSummary": obj(SUMMARY),
    "GameList": obj({"games": array(ref("GameSummary"))}),
    "Player": obj({"id": ID, "name": STRING, "active": BOOL, "email": STRING,
                   "language": LANGUAGE, "joined_at": TIME, "withdrawn_at": nullable(TIME)},
                  optional=("email", "language", "joined_at", "withdrawn_at"),
                  description="email, language and dates only for the game master"),
    "Game": obj({
        **SUMMARY,
        "language": LANGUAGE, "timezone": STRING,
        "rules": obj(RULES_OUT),
        "reminder_hours": array(INT),
        "schedule": obj({"kind": {"type": "string", "enum": ["weekly", "explicit"]},
                         "timezone": STRING,
                         "first": nullable({"type": "string", "description":
                                            "local time of round 1 (weekly form)"}),
                         "every_days": INT, "deadlines": array(TIME),
                         "description": STRING}),
        "commitment": nullable({"type": "string", "description":
                                "SHA-256 of salt:distribution, published at the start"}),
        "rounds_resolved": INT,
        "players": array(ref("Player")),
        "created_at": TIME, "started_at": nullable(TIME), "paused_at": nullable(TIME),
        "finished_at": nullable(TIME),
    }),
    "RoundList": obj({"game_id": ID, "rounds": array(ref("Round"))}),
    "Report": obj({
        "game": STRING, "round": ID, "rounds": INT, "resolved_at": TIME, "bonus_round": BOOL,
        "questions": array(obj({"asker": STRING, "placeholder": STRING, "attributes": STRING,
                                "text": STRING, "answer": INT})),
        "rows": array(obj({"player": STRING, "submitted": BOOL, "tip_score": INT,
                           "bonus": INT, "points": INT, "total": INT, "rank": INT,
                           "repeated": {"type": "boolean", "description": "the missed-turn "
                                        "rule played last round's tips for this player"}})),
        "history": {"type": "object", "additionalProperties": array(nullable(INT)),
                    "description": "player -> total after each round so far"},
        "next_deadline": nullable(TIME), "final": BOOL, "commitment": STRING,
        "winners": array(STRING),
        "distribution": nullable({"type": "string", "description": "final report only"}),
        "salt": nullable({"type": "string", "description": "final report only"}),
        "deadline": nullable(TIME),
        "closed_early": nullable({"type": "string", "enum": ["all_sent", "game_master"],
                                  "description": "resolved before its deadline: every "
                                  "active player had sent a turn (early resolution), or "
                                  "the game master resolved it; null at the deadline"}),
    }),
    "Standings": obj({"game_id": ID, "after_round": nullable(ID), "final": BOOL,
                      "rows": array(obj({"player": STRING, "total": INT, "rank": INT,
                                         "points": INT}))}),
    "Turn": obj({"game_id": ID, "round": ID, "deadline": TIME,
                 "player": obj({"id": ID, "name": STRING}),
                 "question": nullable(QUESTION), "tips": TIPS,
                 "text": {"type": "string", "description": "the turn in the turn language"}}),
    "TurnSubmitted": obj({
        "game_id": ID, "round": ID, "deadline": TIME,
        "player": obj({"id": ID, "name": STRING}),
        "question": nullable(QUESTION), "tips": TIPS, "text": STRING,
        "version": obj({"id": ID, "channel": {"type": "string", "enum": list(CHANNELS)},
                        "status": {"type": "string", "enum": ["accepted"]},
                        "received_at": TIME, "entered_by": STRING}),
    }),
    "Status": obj({"game_id": ID, "state": STATE, "round": nullable(ref("RoundBrief")),
                   "submitted": INT,
                   "players": array(obj({"id": ID, "name": STRING, "submitted": BOOL,
                                         "last_at": nullable(TIME),
                                         "channel": nullable(STRING), "has_question": BOOL,
                                         "tips": INT}))}),
    "Extended": obj({"game_id": ID, "round": ref("RoundBrief")}),
    "Resolved": obj({"round": ID, "resolved_now": {"type": "boolean", "description":
                                                   "false: it was resolved before"},
                     "game": obj({"id": ID, "state": STATE,
                                  "open_round": nullable(ref("RoundBrief"))}),
                     "report": {"type": "string", "description": "URL of the round's report"}}),
    "Audit": obj({"game_id": ID, "entries": array(obj({
        "id": ID, "at": TIME, "actor": STRING, "action": STRING,
        "detail": {"type": "object"}}))}),
    "Distribution": obj({"game_id": ID, "distribution": STRING, "salt": STRING,
                         "commitment": STRING}),
    "Notebook": obj({"game_id": ID, "player_id": ID, "marks": MARKS, "notes": NOTES,
                     "updated_at": nullable(TIME)},
                    description="private to its player: no other token, the game "
                                "master's included, can read it"),
    "Absence": obj({"id": ID, "player_id": ID, "starts": DATE, "ends": DATE,
                    "channel": {"type": "string", "enum": ["web", "api", "email", "gm"]},
                    "created_at": TIME, "cancelled": BOOL,
                    "note": {"type": "string", "description": "for the player and the game "
                             "master only"}},
                   description="from starts to ends, both days included, in the player's "
                               "time zone (the game's if they set none)"),
    "AbsenceCreated": obj({"id": ID, "player_id": ID, "starts": DATE, "ends": DATE,
                           "channel": {"type": "string", "enum": ["web", "api", "email",
                                                                  "gm"]},
                           "created_at": TIME, "cancelled": BOOL, "note": STRING,
                           "start_moved": {"type": "boolean", "description": "the first day "
                                           "was in the past and counts from today"}}),
    "AbsenceList": obj({"game_id": ID, "absences": array(ref("Absence"))}),
    # request bodies
    "AbsenceInput": obj({"starts": DATE, "ends": DATE,
                         "note": {**ONE_LINE, "maxLength": 300},
                         "player_id": {**ID, "description": "game master's tokens only: "
                                       "whom the absence is for"}},
                        optional=("note", "player_id")),
    "NotebookInput": obj({"marks": MARKS, "notes": NOTES}, optional=("marks", "notes"),
                         minProperties=1,
                         description="marks replace every mark (unlisted cells are "
                                     "cleared); what is left out stays"),
    "TextTurn": obj({"text": {"type": "string", "minLength": 1, "maxLength": 65536,
                              "pattern": r"\S", "description": "a turn in the turn language"},
                     "round": ROUND_FIELD}, optional=("round",)),
    "StructuredTurn": obj(
        {"question": nullable(QUESTION), "tips": TIPS,
         "drop": array(GEM, maxItems=len(GEM_CODES)), "drop_all": BOOL, "repeat": BOOL,
         "round": ROUND_FIELD},
        optional=("question", "tips", "drop", "drop_all", "repeat", "round"),
        description="question: absent keeps the standing question, null withdraws it; "
                    "tips replace standing tips gem by gem; applied in the order drop_all, "
                    "repeat, drop, tips; at least one change is needed",
        anyOf=[{"required": ["question"]},
               {"required": ["tips"], "properties": {"tips": {"minProperties": 1}}},
               {"required": ["drop"], "properties": {"drop": {"minItems": 1}}},
               {"required": ["drop_all"], "properties": {"drop_all": {"const": True}}},
               {"required": ["repeat"], "properties": {"repeat": {"const": True}}}]),
    "TurnInput": {"oneOf": [ref("TextTurn"), ref("StructuredTurn")]},
    "GameCreate": obj({
        "name": {**ONE_LINE, "maxLength": 120},
        "language": LANGUAGE,
        "schedule": {"oneOf": [
            obj({"timezone": {**ONE_LINE, "maxLength": 64, "description": "IANA name"},
                 "first": {**ONE_LINE, "maxLength": 32, "description":
                           "local time of round 1's deadline, e.g. 2026-12-06 20:00"},
                 "every_days": {"type": "integer", "minimum": 1, "maximum": 28}},
                optional=("every_days",), title="weekly"),
            obj({"timezone": {**ONE_LINE, "maxLength": 64},
                 "deadlines": array({**ONE_LINE, "maxLength": 64, "description":
                                     "local time, or ISO 8601 with an offset"},
                                    minItems=1, maxItems=52),
                 "every_days": {"type": "integer", "minimum": 1, "maximum": 28}},
                optional=("every_days",), title="explicit"),
        ]},
        "rules": obj({**{name: {"type": "integer", "minimum": low, "maximum": high}
                         for name, (low, high) in RULE_LIMITS.items()},
                      "bonuses": array({"type": "integer", "minimum": 0, "maximum": 99},
                                       maxItems=10),
                      "early_resolution": BOOL, "after_early": AFTER_EARLY,
                      "deduction_aid": AID, "missed_turn_rule": MISSED_TURN},
                     optional=(*RULE_LIMITS, "bonuses", "early_resolution", "after_early",
                               "deduction_aid", "missed_turn_rule")),
        "reminder_hours": array({"type": "integer", "minimum": 1, "maximum": 336},
                                maxItems=10),
    }, optional=("language", "rules", "reminder_hours")),
    "PlayerInvite": obj({"name": {**ONE_LINE, "maxLength": 80},
                         "email": EMAIL,
                         "language": LANGUAGE}, optional=("language",)),
    "PlayerChange": obj({"email": EMAIL}),
    "SeatChange": obj({"player": ref("Player"),
                       "from_round": {"type": "integer", "minimum": 1,
                                      "description": "the newcomer plays from this round"},
                       "old_name": STRING, "old_email": STRING, "at": TIME},
                      description="a seat handed to a substitute (the player is the seat, "
                                  "now under the newcomer's name and address)"),
    "ExtendInput": obj({"deadline": {**TIME, "description":
                                     "the new deadline, ISO 8601 with its offset; "
                                     "in the future"}}),
    "ResolveInput": obj({"round": {"type": "integer", "minimum": 1, "maximum": MAX_ID}}),
    "Empty": obj({}, description="no fields (the body may be left out)"),
    "ListingInput": obj({"open": BOOL, "max_players": nullable(
                         {"type": "integer", "minimum": 1, "maximum": 1000})},
                        optional=("max_players",),
                        description="open: listed at /games/open for anyone signed in to ask "
                                    "to join; max_players: active players at most (null or "
                                    "left out: no limit)"),
    "Listing": obj({"game_id": ID, "open": BOOL, "max_players": nullable(ID),
                    "players": INT, "full": BOOL}),
    "JoinRequest": obj({"id": ID, "game_id": ID, "name": STRING, "email": STRING,
                        "language": LANGUAGE, "message": STRING,
                        "state": {"type": "string", "enum": ["pending", "accepted", "declined"]},
                        "created_at": TIME, "decided_at": nullable(TIME),
                        "player_id": nullable(ID)}),
    "JoinRequests": obj({"game_id": ID, "open": BOOL, "max_players": nullable(ID),
                         "players": INT, "full": BOOL,
                         "requests": array(ref("JoinRequest"))}),
    "AcceptInput": obj({"name": {**ONE_LINE, "maxLength": 80}}, optional=("name",),
                       description="name: another name than the one asked for"),
}
