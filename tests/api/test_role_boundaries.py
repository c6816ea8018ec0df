"""Who gets what from every API call: one table over the served openapi.json, six callers.

Game 1 "Zircon Vault" is run by Gail; Ada and Vera play in it. Game 2 "Basalt
Keep" is run by Otto; Cy plays in it. Vera's address also runs game 3 "Garnet
Hall", but her token is a player token: it acts for her player in game 1 and
never with GM rights. Each caller has a token from accounts.issue_api_token.

Path parameters are filled with game 1's ids (the game, Ada, round 1), so
"foreign" means game 1 seen by game 2's people. Every body carries an unknown
field, so a call that gets past the access checks is refused on its input and
nothing changes for anyone. Every answer is checked against openapi.json too.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from role_support import snapshot
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Game, utcnow
from vpsleuth.services import absence, accounts, board, lobby, resolution
from vpsleuth.services.access import viewer_for

from .helpers import make_game

GAIL, OTTO = "gail@example.org", "otto@example.org"
ADA, VERA, CY = "ada@example.org", "vera@example.org", "cy@example.org"
GAME_1, GAME_2, GAME_3 = "Zircon Vault", "Basalt Keep", "Garnet Hall"

# The table's columns: no token; the player tokens of Ada (game 1) and Cy (game 2); the
# GM tokens of Gail (game 1) and Otto (game 2); the player token of Vera (game 1), whose
# address also has a GM account.
WHO = ("anon", "p1", "p2", "gm1", "gm2", "vera")
MEMBER_OF = {"anon": set(), "p1": {GAME_1}, "p2": {GAME_2}, "gm1": {GAME_1},
             "gm2": {GAME_2}, "vera": {GAME_1}}
EMAIL = {"p1": ADA, "p2": CY, "gm1": GAIL, "gm2": OTTO, "vera": VERA}

# Answer classes: ok = 2xx; bad = 400 or 422 (let in, refused on the body); otherwise
# the status itself. Rows are "METHOD path" as in openapi.json.
TABLE = {
    #                                                       anon  p1    p2    gm1   gm2   vera
    "GET /openapi.json":                                   "ok    ok    ok    ok    ok    ok",
    "GET /me":                                             "401   ok    ok    ok    ok    ok",
    "GET /games":                                          "401   ok    ok    ok    ok    ok",
    "POST /games":                                         "401   403   403   bad   bad   403",
    # What every member of a game reads.
    "GET /games/{game_id}":                                "401   ok    404   ok    404   ok",
    "GET /games/{game_id}/rounds":                         "401   ok    404   ok    404   ok",
    "GET /games/{game_id}/rounds/{number}/report":         "401   ok    404   ok    404   ok",
    "GET /games/{game_id}/standings":                      "401   ok    404   ok    404   ok",
    # The game told afterwards: its GM at any time, its players only after the end (game 1
    # runs), everyone else as for a game that does not exist.
    "GET /games/{game_id}/story":                          "401   404   404   ok    404   404",
    # A player's own turn: the GM who does not play has none (403, the game is theirs).
    "GET /games/{game_id}/turn":                           "401   ok    404   403   404   ok",
    "PUT /games/{game_id}/turn":                           "401   bad   404   403   404   bad",
    "POST /games/{game_id}/turn":                          "401   bad   404   403   404   bad",
    # A player's own notebook: only a player token reaches it; GM tokens are 404.
    "GET /games/{game_id}/notebook":                       "401   ok    404   404   404   ok",
    "PUT /games/{game_id}/notebook":                       "401   bad   404   404   404   bad",
    # The game's board (Ada wrote post {post_id}): its members read and post (the body's
    # unknown field refuses it here); only the author deletes, only its GM hides.
    "GET /games/{game_id}/board":                          "401   ok    404   ok    404   ok",
    "POST /games/{game_id}/board":                         "401   bad   404   bad   404   bad",
    "POST /games/{game_id}/board/{post_id}/delete":        "401   bad   404   403   404   403",
    "POST /games/{game_id}/board/{post_id}/hide":          "401   403   404   bad   404   403",
    # Absences (Ada announced {absence_id}): a player's own, the GM's for every player of
    # the game (the body's unknown field refuses announcing and cancelling here).
    "GET /games/{game_id}/absences":                       "401   ok    404   ok    404   ok",
    "POST /games/{game_id}/absences":                      "401   bad   404   bad   404   bad",
    "POST /games/{game_id}/absences/{absence_id}/cancel":  "401   bad   404   bad   404   404",
    # The game master's calls: 403 for the game's players, 404 for everyone else.
    "POST /games/{game_id}/players":                       "401   403   404   bad   404   403",
    "PATCH /games/{game_id}/players/{player_id}":          "401   403   404   bad   404   403",
    "POST /games/{game_id}/players/{player_id}/withdraw":  "401   403   404   bad   404   403",
    "POST /games/{game_id}/players/{player_id}/replace":   "401   403   404   bad   404   403",
    "POST /games/{game_id}/players/{player_id}/turn":      "401   403   404   bad   404   403",
    "POST /games/{game_id}/start":                         "401   403   404   bad   404   403",
    "GET /games/{game_id}/status":                         "401   403   404   ok    404   403",
    "POST /games/{game_id}/extend":                        "401   403   404   bad   404   403",
    "POST /games/{game_id}/deadline":                      "401   403   404   bad   404   403",
    "POST /games/{game_id}/pause":                         "401   403   404   bad   404   403",
    "POST /games/{game_id}/resume":                        "401   403   404   bad   404   403",
    "POST /games/{game_id}/resolve":                       "401   403   404   bad   404   403",
    "GET /games/{game_id}/audit":                          "401   403   404   ok    404   403",
    "GET /games/{game_id}/distribution":                   "401   403   404   bad   404   403",
    # The chat webhook (none set): its GM reads it and may remove none; a PUT with the
    # body's unknown field is refused.
    "GET /games/{game_id}/webhook":                        "401   403   404   ok    404   403",
    "PUT /games/{game_id}/webhook":                        "401   403   404   bad   404   403",
    "DELETE /games/{game_id}/webhook":                     "401   403   404   ok    404   403",
    # Open games: game 1 is listed and Otto has asked to join it; only its GM sees him.
    "PUT /games/{game_id}/listing":                        "401   403   404   bad   404   403",
    "GET /games/{game_id}/join-requests":                  "401   403   404   ok    404   403",
    "POST /games/{game_id}/join-requests/{request_id}/accept":
                                                           "401   403   404   bad   404   403",
    "POST /games/{game_id}/join-requests/{request_id}/decline":
                                                           "401   403   404   bad   404   403",
    # A person's data (issue 22): a player token's export holds its one seat; deleting an
    # account takes a GM token (the body's unknown field refuses it here), never a player's.
    "GET /me/export":                                      "401   ok    ok    ok    ok    ok",
    "POST /me/delete":                                     "401   403   403   bad   bad   403",
    # The ratings are public; nobody is rated yet.
    "GET /ratings":                                        "ok    ok    ok    ok    ok    ok",
    "GET /ratings/{profile_id}":                           "404   404   404   404   404   404",
}
# Routes of the API blueprint that openapi.json leaves out on purpose: any other path
# under /api/v1 is a JSON 404 for everyone, token or not. (rule -> a path it matches)
UNDOCUMENTED = {"/api/v1/": "/", "/api/v1/<api_any_path:path>": "/no/such/route"}
BODY = {"harmless": True}  # an unknown field: refused by every call that reads a body


def answer_class(response) -> str:
    status = response.status_code
    if 200 <= status < 300:
        return "ok"
    return "bad" if status in (400, 422) else str(status)


def operations(document: dict) -> set[str]:
    """Every "METHOD path" of an OpenAPI document."""
    return {f"{method.upper()} {path}" for path, item in document["paths"].items()
            for method in item if method in ("get", "put", "post", "patch", "delete")}


def as_rule(path: str) -> str:
    """A document path as the url_map spells it: /games/{game_id} -> /games/<int:game_id>."""
    return "/api/v1" + re.sub(r"\{(\w+)\}", r"<int:\1>", path)


@pytest.fixture
def callers(app) -> tuple[dict, dict[str, str | None]]:
    """The three games; (path parameter values, a token per caller)."""
    gail = accounts.create_game_master(GAIL, "Gail")
    otto = accounts.create_game_master(OTTO, "Otto")
    vera_gm = accounts.create_game_master(VERA, "Vera")
    game = make_game(GAME_1, gail.id, [("Ada", ADA), ("Vera", VERA)])
    resolution.resolve_round(game, number=1)  # a report to read
    other = make_game(GAME_2, otto.id, [("Cy", CY)])
    make_game(GAME_3, vera_gm.id, [], start=False)
    ada, vera = game.players
    lobby.set_listing(game, open_to_join=True, max_players=None)
    otto_asks = lobby.ask_to_join(viewer_for(OTTO), game.id, "Otto")
    post = board.post(game, "Good luck, all!", player=ada, channel="web")
    today = utcnow().date()
    away = absence.announce(ada, today, today + timedelta(days=3), "", channel="api",
                            entered_by=ADA)
    tokens = {"anon": None,
              "p1": accounts.issue_api_token(player=ada)[1],
              "p2": accounts.issue_api_token(player=other.players[0])[1],
              "gm1": accounts.issue_api_token(game_master=gail)[1],
              "gm2": accounts.issue_api_token(game_master=otto)[1],
              "vera": accounts.issue_api_token(player=vera)[1]}
    return {"game_id": game.id, "player_id": ada.id, "number": 1,
            "request_id": otto_asks.id, "profile_id": 1, "post_id": post.id,
            "absence_id": away.id}, tokens


def forbidden_words(who: str) -> set[str]:
    """Names of games ``who`` has no part in, and the addresses of their players."""
    words = set()
    for game in db.session.scalars(select(Game)):
        if game.name not in MEMBER_OF[who]:
            # An open game's name (never its players) is known to every account: Otto asked
            # to join game 1, and his data (GET /me/export) holds the mail that says so.
            listed = game.open_to_join and who in ("gm1", "gm2")
            words |= (set() if listed else {game.name}) | {p.email for p in game.players}
    return words - {EMAIL.get(who)}


def test_every_api_route_is_in_the_document_and_every_operation_in_the_table(app):
    served_doc = app.test_client().get("/api/v1/openapi.json").get_json()
    documented = operations(served_doc)
    assert set(TABLE) == documented, (
        f"operations without a row: {sorted(documented - set(TABLE))}; "
        f"rows without an operation: {sorted(set(TABLE) - documented)}")
    routes = {(method, rule.rule) for rule in app.url_map.iter_rules()
              if rule.rule.startswith("/api/") for method in rule.methods - {"HEAD", "OPTIONS"}}
    in_document = {(op.split()[0], as_rule(op.split()[1])) for op in documented}
    undocumented = {(method, rule) for method, rule in routes if rule in UNDOCUMENTED}
    assert routes - undocumented == in_document, (
        f"routes missing from openapi.json: {sorted(routes - undocumented - in_document)}; "
        f"documented but not served: {sorted(in_document - routes)}")
    for key, row in TABLE.items():
        assert len(row.split()) == len(WHO), key


def test_every_caller_gets_what_the_table_says_from_every_api_call(api, callers):
    values, tokens = callers
    words = {who: forbidden_words(who) for who in WHO}
    mismatches: list[str] = []
    before = snapshot()
    for key, row in TABLE.items():
        method, path = key.split()
        for who, expected in zip(WHO, row.split(), strict=True):
            body = BODY if method in ("POST", "PUT", "PATCH") else None
            try:
                response = api.call(method, path.format(**values), tokens[who], json_body=body)
            except Exception as exc:  # noqa: BLE001 - listed with the rest
                mismatches.append(f"{who:4} {key}: raised {exc!r}")
                continue
            got = answer_class(response)
            if got != expected:
                mismatches.append(f"{who:4} {key}: expected {expected}, got {got} "
                                  f"({response.status_code})")
            leaked = sorted(w for w in words[who] if w in response.get_data(as_text=True))
            if leaked:
                mismatches.append(f"{who:4} {key}: the answer names {leaked}")
            after = snapshot()
            if after != before:
                mismatches.append(f"{who:4} {key}: changed something ({got})")
                before = after
    for path in UNDOCUMENTED.values():
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
            for who in WHO:
                response = api.call(method, path, tokens[who], validate=False)
                if response.status_code != 404:
                    mismatches.append(f"{who:4} {method} {path}: expected 404, got "
                                      f"{response.status_code}")
    assert not mismatches, f"{len(mismatches)} answers differ from TABLE:\n" + "\n".join(
        mismatches)
