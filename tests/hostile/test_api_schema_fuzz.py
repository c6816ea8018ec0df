"""schemathesis against the API's own OpenAPI document, inside pytest (SQLite only).

Every operation gets generated requests, valid and invalid (schemathesis' coverage
phase, then its fuzzing phase), on a fresh database with a running, a finished
and a not yet started game (the ``cast``): the game master's operations with
Gail's token, the player's operations with Ada's. Path ids are mostly drawn
from the small ids the cast has, so requests reach the services rather than
stopping at a 404. Checked for every response: never a server error, and
status, content type, headers and body as openapi.json describes them.

Schema-valid data may still be refused where the schema cannot say what is
wrong: a time zone or deadline that only looks like one, a house rule that
contradicts another, an address or name that already plays (400, for the
operations that create or change games, deadlines and players, and accept a
request to join), an absence that ends before it begins or in the past, a chat webhook's
address that is not https to the public internet (400),
or a turn that breaks a rule of the game (two colours in one question: 422, for
the turn operations).
Every other operation must accept schema-valid data (or answer 401, 403, 404,
409 or 429, which depend on who asks and on the state of the game).

The document is loaded from what the app serves (an app that needs no database
serves it for collection); the cases go to the app of each test. The run is
bounded (max_examples, derandomize; no coverage phase for POST .../turn, which
is PUT's twin) and runs on SQLite only.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from vpsleuth import create_app
from vpsleuth.api.inputs import MAX_ID

# The cast has at most these ids (its fixture checks it); MAX_ID is never one.
GAME_IDS = [1, 2, 3, MAX_ID]
PLAYER_IDS = [1, 2, 3, 4, 5, 6, MAX_ID]
ROUNDS = [1, 2, 3]
# Real time zones and times, so that schema-valid games and deadlines are also valid ones.
ZONES = ["Europe/Berlin", "UTC", "America/New_York", "Asia/Kathmandu"]
LOCAL_TIMES = ["2027-01-10 20:00", "2027-03-28 02:30", "2999-12-31 23:59", "2000-01-01 00:00"]
MOMENTS = ["2027-02-01T20:00:00+01:00", "2999-12-31T23:59:59+00:00", "2000-01-01T00:00:00Z"]
ACCEPTED = ["2xx", "401", "403", "404", "409", "429"]
EXAMPLES = 10

CONFIG = schemathesis.Config.from_dict({
    "generation": {"max-examples": EXAMPLES, "deterministic": True, "database": "none"},
    "phases": {"stateful": {"enabled": False}},
    "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}},
    "dictionaries": {"games": {"values": GAME_IDS}, "players": {"values": PLAYER_IDS},
                     "rounds": {"values": ROUNDS}, "zones": {"values": ZONES},
                     "local_times": {"values": LOCAL_TIMES}, "moments": {"values": MOMENTS}},
    "parameters": {
        "path.game_id": {"dictionary": "games", "probability": 0.9},
        "path.player_id": {"dictionary": "players", "probability": 0.9},
        "path.number": {"dictionary": "rounds", "probability": 0.9},
        "body.round": {"dictionary": "rounds", "probability": 0.7},
        "body.schedule.timezone": {"dictionary": "zones", "probability": 0.7},
        "body.schedule.first": {"dictionary": "local_times", "probability": 0.7},
        "body.schedule.deadlines[*]": {"dictionary": "local_times", "probability": 0.7},
        "body.deadline": {"dictionary": "moments", "probability": 0.7},
    },
    "operations": [
        {"include-operation-id": "postTurn", "phases": {"coverage": {"enabled": False}}},
        # Few random schedules are real ones: more tries, so that some games are created.
        {"include-operation-id": "createGame", "generation": {"max-examples": 4 * EXAMPLES}},
        {"include-operation-id": ["createGame", "extendDeadline", "moveDeadline", "invitePlayer",
                                  "changePlayer", "replacePlayer", "acceptJoinRequest",
                                  "postAbsence", "putWebhook"],
         "checks": {"positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "400"]}}},
        {"include-operation-id": ["putTurn", "postTurn", "enterTurn"],
         "checks": {"positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "422"]}}},
    ],
})
schema = schemathesis.openapi.from_wsgi(
    "/api/v1/openapi.json", create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}),
    config=CONFIG)
BOUNDED = settings(deadline=None, derandomize=True, database=None,
                   suppress_health_check=list(HealthCheck))


@pytest.fixture
def tokens(cast) -> dict[str, dict[str, str]]:
    """Authorization headers for Gail ("gm") and Ada ("player"); the cast's ids checked."""
    assert set(cast.game_ids) <= set(GAME_IDS) and set(cast.player_ids) <= set(PLAYER_IDS)
    return {who: {"Authorization": f"Bearer {raw}"} for who, raw in cast.tokens.items()}


@schema.exclude(tag="turns").parametrize()
@BOUNDED
def test_no_request_of_a_game_master_gets_a_server_error_or_an_undocumented_answer(
        case, sqlite_app, tokens):
    case.call_and_validate(app=sqlite_app, headers=tokens["gm"])


@schema.exclude(tag="game master").parametrize()
@BOUNDED
def test_no_request_of_a_player_gets_a_server_error_or_an_undocumented_answer(
        case, sqlite_app, tokens):
    case.call_and_validate(app=sqlite_app, headers=tokens["player"])
