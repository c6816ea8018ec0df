"""The paths of openapi.json, as data: one entry per route of the blueprint.

A test checks that this list and the blueprint's routes are the same, and every
response in the API tests is validated against it.
"""

from __future__ import annotations

from .inputs import MAX_ID
from .spec_schemas import LANGUAGES, ref

_ERRORS = {
    400: ("Invalid", "invalid request: a field is missing, of the wrong type or breaks a rule"),
    401: ("Unauthorized", "no API token, or one that is unknown or revoked"),
    403: ("Forbidden", "the token's owner may not do this"),
    404: ("NotFound", "no such game, player or round among the caller's games"),
    409: ("Conflict", "the game or round is not in a state that allows this "
                      "(wrong_state, round_closed)"),
    422: ("TurnRefused", "the turn has bad lines; nothing of it was applied; details lists "
                         "every bad line"),
    413: ("TooLarge", "the request body is larger than 256 KiB (too_large); it was not read"),
    429: ("RateLimited", "too many requests: sign-in links for an address in the last hour, "
                         "or costly requests of one account (two at a time; so many a "
                         "minute of stories, notebook saves and practice turns)"),
}
RESPONSES = {name: {"description": text,
                    "content": {"application/json": {"schema": ref("Error")}}}
             for name, text in _ERRORS.values()}


def _param(name: str, description: str) -> dict:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID}}


def _told_later(operation: dict) -> dict:
    """A story not told yet answers 202 with its state; the client asks again later."""
    operation["responses"]["202"] = {
        "description": "the story is being worked out (computed once, seconds after the "
                       "game ends or it is first asked for): ask again after Retry-After "
                       "seconds; state failed: it could not be told",
        "headers": {"Retry-After": {"schema": {"type": "integer"}}},
        "content": {"application/json": {"schema": ref("StoryPending")}}}
    return operation


PARAMETERS = {
    "GameId": _param("game_id", "the game's id"),
    "PlayerId": _param("player_id", "the player's id (see the game's players)"),
    "RoundNumber": _param("number", "the round's number, from 1"),
    "RequestId": _param("request_id", "the request's id (see the game's join requests)"),
    "AbsenceId": _param("absence_id", "the absence's id (see the game's absences)"),
    "ProfileId": _param("profile_id", "a person's id on the leaderboard"),
    "Page": {"name": "page", "in": "query", "required": False,
             "description": "the page, from 1 (50 a page)",
             "schema": {"type": "integer", "minimum": 1, "maximum": 10000}},
    "Lang": {"name": "lang", "in": "query", "required": False,
             "description": "language of question texts (default: the game's)",
             "schema": {"type": "string", "enum": list(LANGUAGES)}},
    "Confirm": {"name": "confirm", "in": "query", "required": True,
                "description": "must be yes: looking at the secret is a deliberate act",
                "schema": {"type": "string", "enum": ["yes"]}},
}


def op(op_id: str, summary: str, schema: str, *, errors: tuple[int, ...] = (), status: int = 200,
       body: str | None = None, body_required: bool = True, params: tuple[str, ...] = (),
       tag: str = "games", public: bool = False) -> dict:
    """One operation: its success response, the error statuses it can answer with."""
    operation = {
        "operationId": op_id,
        "summary": summary,
        "tags": [tag],
        "responses": {
            str(status): {"description": "success",
                          "content": {"application/json": {"schema": ref(schema)}}},
            **{str(code): {"$ref": f"#/components/responses/{_ERRORS[code][0]}"}
               for code in sorted(((401,) if not public else ()) + errors
                                  + ((413,) if body is not None else ()))},
        },
    }
    if params:
        operation["parameters"] = [{"$ref": f"#/components/parameters/{p}"} for p in params]
    if body is not None:
        operation["requestBody"] = {"required": body_required, "content": {
            "application/json": {"schema": ref(body)}}}
    if public:
        operation["security"] = []
    return operation


G = ("GameId",)
GP = ("GameId", "PlayerId")
GR = ("GameId", "RequestId")
_TURN_ERRORS = (400, 403, 404, 409, 422, 429)  # 429: practice turns, costly

PATHS = {
    "/openapi.json": {"get": {
        "operationId": "openapi", "summary": "This document", "tags": ["meta"],
        "security": [],
        "responses": {"200": {"description": "the OpenAPI document",
                              "content": {"application/json": {"schema": {"type": "object"}}}}},
    }},
    "/me": {"get": op("me", "Who the token belongs to", "Me", tag="meta")},
    "/me/export": {"get": op(
        "exportMe", "Everything stored about the caller, table by table (a player token: "
        "its one seat)", "PersonalData", tag="my data")},
    "/me/delete": {"post": op(
        "deleteMe", "Delete the account of a game master token's address (running games "
        "withdraw it; seats stay as former players); player tokens are refused",
        "AccountDeleted", body="DeleteInput", errors=(400, 403, 404), tag="my data")},
    "/ratings": {"get": op(
        "getLeaderboard", "The leaderboard: everyone rated, highest first (no token needed)",
        "Leaderboard", params=("Page",), errors=(400,), tag="ratings", public=True)},
    "/ratings/{profile_id}": {"get": op(
        "getRatingHistory", "One person's rating and history, game by game (no token needed)",
        "RatingHistory", params=("ProfileId",), errors=(404,), tag="ratings", public=True)},
    "/games": {
        "get": op("listGames", "Games the caller plays in or runs (a player token: its game)",
                  "GameList"),
        "post": op("createGame", "Create a game in setup (game masters only)", "Game",
                   status=201, body="GameCreate", errors=(400, 403), tag="game master"),
    },
    "/games/{game_id}": {"get": op(
        "getGame", "Public facts of a game; players' emails for its game master", "Game",
        params=G, errors=(404,))},
    "/games/{game_id}/rounds": {"get": op(
        "listRounds", "The game's rounds with their deadlines", "RoundList", params=G,
        errors=(404,))},
    "/games/{game_id}/rounds/{number}/report": {"get": op(
        "getReport", "A resolved round's report (distribution and salt only in the final one)",
        "Report", params=(*G, "RoundNumber", "Lang"), errors=(400, 404))},
    "/games/{game_id}/standings": {"get": op(
        "getStandings", "Totals and ranks after the latest resolved round", "Standings",
        params=G, errors=(404,))},
    "/games/{game_id}/turn": {
        "get": op("getTurn", "The caller's standing turn for the open round", "Turn", params=G,
                  errors=(403, 404, 409), tag="turns"),
        "put": op("putTurn", "Send a turn: text in the turn language, or structured",
                  "TurnSubmitted", params=G, body="TurnInput", errors=_TURN_ERRORS,
                  tag="turns"),
        "post": op("postTurn", "Send a turn (same as PUT)", "TurnSubmitted", params=G,
                   body="TurnInput", errors=_TURN_ERRORS, tag="turns"),
    },
    "/games/{game_id}/story": {"get": _told_later(op(
        "getStory", "The game told afterwards: what the public record proved (the game's "
        "game master at any time; its players after the end)", "Story", params=G,
        errors=(404, 429)))},
    "/games/{game_id}/absences": {
        "get": op("listAbsences", "The caller's own absences; a game master's token: every "
                  "player's of the game", "AbsenceList", params=G, errors=(403, 404),
                  tag="absences"),
        "post": op("postAbsence", "Announce an absence (a game master's token names the "
                   "player_id; audited)", "AbsenceCreated", status=201, params=G,
                   body="AbsenceInput", errors=(400, 403, 404, 409), tag="absences"),
    },
    "/games/{game_id}/absences/{absence_id}/cancel": {"post": op(
        "cancelAbsence", "Cancel an absence (kept in the list, marked cancelled, no longer "
        "counting; a game master's cancellation is audited)", "Absence",
        params=("GameId", "AbsenceId"), body="Empty", body_required=False,
        errors=(400, 403, 404), tag="absences")},
    "/games/{game_id}/notebook": {
        "get": op("getNotebook", "The caller's private notebook (player tokens only)",
                  "Notebook", params=G, errors=(404,), tag="notebook"),
        "put": op("putNotebook", "Replace the notebook's marks, notes or both",
                  "Notebook", params=G, body="NotebookInput", errors=(400, 404, 429),
                  tag="notebook"),
    },
    "/games/{game_id}/players": {"post": op(
        "invitePlayer", "Add a player; an invitation with a sign-in link is mailed", "Player",
        status=201, params=G, body="PlayerInvite", errors=(400, 403, 404, 409, 429),
        tag="game master")},
    "/games/{game_id}/players/{player_id}": {"patch": op(
        "changePlayer", "Change a player's email address", "Player", params=GP,
        body="PlayerChange", errors=(400, 403, 404), tag="game master")},
    "/games/{game_id}/players/{player_id}/withdraw": {"post": op(
        "withdrawPlayer", "Withdraw a player", "Player", params=GP, body="Empty",
        body_required=False, errors=(400, 403, 404, 409), tag="game master")},
    "/games/{game_id}/players/{player_id}/replace": {"post": op(
        "replacePlayer", "Hand a player's seat to a substitute (points and history stay)",
        "SeatChange", params=GP, body="PlayerInvite", errors=(400, 403, 404, 409),
        tag="game master")},
    "/games/{game_id}/players/{player_id}/turn": {"post": op(
        "enterTurn", "Enter a turn for a player (audited; the player is told)",
        "TurnSubmitted", params=GP, body="TurnInput", errors=_TURN_ERRORS,
        tag="game master")},
    "/games/{game_id}/start": {"post": op(
        "startGame", "Deal, publish the commitment, open round 1", "Game", params=G,
        body="Empty", body_required=False, errors=(400, 403, 404, 409), tag="game master")},
    "/games/{game_id}/status": {"get": op(
        "getStatus", "Who has a turn in for the open round (counts only)", "Status",
        params=G, errors=(403, 404), tag="game master")},
    "/games/{game_id}/extend": {"post": op(
        "extendDeadline", "Move the open round's deadline later", "Extended", params=G,
        body="ExtendInput", errors=(400, 403, 404, 409), tag="game master")},
    "/games/{game_id}/deadline": {"post": op(
        "moveDeadline", "Move the open round's deadline later or earlier, never into the past",
        "Extended", params=G, body="ExtendInput", errors=(400, 403, 404, 409),
        tag="game master")},
    "/games/{game_id}/pause": {"post": op(
        "pauseGame", "Stop the clock", "Game", params=G, body="Empty", body_required=False,
        errors=(400, 403, 404, 409), tag="game master")},
    "/games/{game_id}/resume": {"post": op(
        "resumeGame", "Restart the clock; the deadline moves by the pause", "Game", params=G,
        body="Empty", body_required=False, errors=(400, 403, 404, 409), tag="game master")},
    "/games/{game_id}/resolve": {"post": op(
        "resolveRound", "Resolve a round now; a repeat for a resolved round changes nothing",
        "Resolved", params=G, body="ResolveInput", errors=(400, 403, 404, 409),
        tag="game master")},
    "/games/{game_id}/audit": {"get": op(
        "getAudit", "The game's audit log", "Audit", params=G, errors=(403, 404),
        tag="game master")},
    "/games/{game_id}/distribution": {"get": op(
        "getDistribution", "The secret distribution and salt (audited); needs confirm=yes",
        "Distribution", params=(*G, "Confirm"), errors=(400, 403, 404, 409),
        tag="game master")},
    "/games/{game_id}/listing": {"put": op(
        "putListing", "List the game as open to requests to join, and set its player limit",
        "Listing", params=G, body="ListingInput", errors=(400, 403, 404, 409),
        tag="open games")},
    "/games/{game_id}/join-requests": {"get": op(
        "listJoinRequests", "The listing and every request to join (names, addresses, "
        "messages): the game master's only", "JoinRequests", params=G, errors=(403, 404),
        tag="open games")},
    "/games/{game_id}/join-requests/{request_id}/accept": {"post": op(
        "acceptJoinRequest", "Add the requester as a player; the normal invitation is mailed",
        "Player", status=201, params=GR, body="AcceptInput", body_required=False,
        errors=(400, 403, 404, 409), tag="open games")},
    "/games/{game_id}/join-requests/{request_id}/decline": {"post": op(
        "declineJoinRequest", "Decline a request; the requester is told by mail",
        "JoinRequest", params=GR, body="Empty", body_required=False,
        errors=(400, 403, 404, 409), tag="open games")},
}
