"""Bearer tokens, and who may see and do what (the authorization matrix)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from vpsleuth.services import accounts, games

from .helpers import error_of, make_game


def test_a_request_without_a_token_is_refused_with_401_and_a_bearer_challenge(api, cast):
    response = api.get("/games")
    assert response.status_code == 401
    assert error_of(response)["code"] == "unauthorized"
    assert "Bearer" in error_of(response)["message"]
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_a_header_that_is_not_a_bearer_token_is_refused(api, cast):
    for header in ["Basic YWRhOnNlY3JldA==", "Bearer", "Bearer   ", cast["ada"]]:
        response = api.get("/me", headers={"Authorization": header})
        assert response.status_code == 401, header
        assert error_of(response)["code"] == "unauthorized"


def test_an_unknown_token_is_refused_as_invalid(api, cast):
    response = api.get("/me", "vps_not-a-token")
    assert response.status_code == 401
    assert error_of(response)["code"] == "invalid_token"


def test_a_revoked_token_stops_working_at_once(api, cast):
    token, raw = accounts.issue_api_token(player=cast.ada, label="script")
    assert api.get("/me", raw).status_code == 200
    accounts.revoke_api_token(token.id, owner_player_ids={cast.ada.id})
    response = api.get("/me", raw)
    assert response.status_code == 401
    assert error_of(response)["code"] == "invalid_token"


def test_me_tells_a_game_master_who_they_are(api, cast):
    me = api.get("/me", cast["gm"]).get_json()
    assert (me["kind"], me["name"], me["email"]) == ("game_master", "Gail", "gail@example.org")
    assert me["game_master_id"] is not None and me["player"] is None


def test_me_tells_a_player_their_player_and_game(api, cast):
    me = api.get("/me", cast["ben"]).get_json()
    assert (me["kind"], me["name"], me["email"]) == ("player", "Ben", "ben@example.org")
    assert me["player"] == {"id": cast.ben.id, "name": "Ben", "game_id": cast.game.id}
    assert me["game_master_id"] is None


# (method, path, body); {g} is Riddle's id, {p} is Ben's player id.
MEMBER_READS = [("GET", "/games/{g}", None), ("GET", "/games/{g}/rounds", None),
                ("GET", "/games/{g}/standings", None)]
GM_CALLS = [
    ("GET", "/games/{g}/status", None),
    ("GET", "/games/{g}/audit", None),
    ("GET", "/games/{g}/distribution?confirm=yes", None),
    ("POST", "/games/{g}/players", {"name": "Dee", "email": "dee@example.org"}),
    ("PATCH", "/games/{g}/players/{p}", {"email": "ben2@example.org"}),
    ("POST", "/games/{g}/players/{p}/withdraw", None),
    ("POST", "/games/{g}/players/{p}/turn", {"text": "TIP A RD1"}),
    ("POST", "/games/{g}/extend", {"deadline": "2999-01-01T20:00:00+00:00"}),
    ("POST", "/games/{g}/pause", None),
    ("POST", "/games/{g}/resolve", {"round": 1}),
    ("POST", "/games/{g}/start", None),
]
OWN_TURN = [("GET", "/games/{g}/turn", None), ("PUT", "/games/{g}/turn", {"text": "TIP A RD1"})]


def _call(api, cast, who, method, path, body):
    path = path.format(g=cast.game.id, p=cast.ben.id)
    return api.call(method, path, cast[who] if who else None, json_body=body)


@pytest.mark.parametrize("who,status", [(None, 401), ("other_gm", 404), ("cy", 404)])
def test_outsiders_learn_nothing_about_a_game_not_even_that_it_exists(api, cast, who, status):
    for method, path, body in MEMBER_READS + GM_CALLS + OWN_TURN:
        response = _call(api, cast, who, method, path, body)
        assert response.status_code == status, (method, path)
        assert "Riddle" not in response.get_data(as_text=True), (method, path)
    assert cast.game.state == "running" and cast.ben.active


@pytest.mark.parametrize("who", ["ada", "ben"])
def test_players_of_a_game_cannot_make_game_master_calls(api, cast, who):
    for method, path, body in GM_CALLS:
        response = _call(api, cast, who, method, path, body)
        assert response.status_code == 403, (method, path)
        assert error_of(response)["code"] == "forbidden"
    assert [p.name for p in cast.game.players] == ["Ada", "Ben"]
    assert cast.game.state == "running" and cast.ben.active
    assert cast.ben.email == "Ben@Example.org"


def test_members_of_a_game_may_read_it(api, cast):
    for who in ("gm", "ada", "ben"):
        for method, path, body in MEMBER_READS:
            assert _call(api, cast, who, method, path, body).status_code == 200, (who, path)


def test_a_player_cannot_enter_a_turn_for_another_player(api, cast):
    api.put(f"/games/{cast.game.id}/turn", cast["ben"], {"text": "TIP B BP2"})
    response = api.post(f"/games/{cast.game.id}/players/{cast.ben.id}/turn", cast["ada"],
                        {"text": "TIP A RD1"})
    assert response.status_code == 403
    assert api.get(f"/games/{cast.game.id}/turn", cast["ben"]).get_json()["tips"] == {"BP2": "B"}


def test_a_game_master_who_does_not_play_has_no_turn_of_their_own(api, cast):
    response = api.get(f"/games/{cast.game.id}/turn", cast["gm"])
    assert response.status_code == 403
    assert "do not play" in error_of(response)["message"]


def test_a_player_token_reaches_only_its_own_game_even_if_the_address_plays_elsewhere(
        api, cast):
    second = make_game("Second", None, [("Ada", "ada@example.org")])
    listed = [g["id"] for g in api.get("/games", cast["ada"]).get_json()["games"]]
    assert listed == [cast.game.id]
    assert api.get(f"/games/{second.id}", cast["ada"]).status_code == 404
    ada_there = second.players[0]
    _, raw = accounts.issue_api_token(player=ada_there)
    assert [g["id"] for g in api.get("/games", raw).get_json()["games"]] == [second.id]


def test_a_player_token_never_has_game_master_rights_even_if_the_address_is_a_gm(api, cast):
    gm = accounts.create_game_master("ada@example.org", "Ada the GM")
    own = make_game("Ada's", gm.id, [("Zed", "zed@example.org")], start=False)
    assert api.get(f"/games/{own.id}", cast["ada"]).status_code == 404
    response = api.post("/games", cast["ada"], {
        "name": "Nope", "schedule": {"timezone": "UTC", "first": "2999-01-01 20:00"}})
    assert response.status_code == 403
    _, gm_raw = accounts.issue_api_token(game_master=gm)
    assert api.post(f"/games/{own.id}/start", gm_raw).status_code == 200


def test_a_game_master_sees_the_games_they_run_and_play_in_with_their_roles(api, cast):
    gm = accounts.create_game_master("ben@example.org", "Ben the GM")
    own = make_game("Ben's", gm.id, [("Zed", "zed@example.org")], start=False)
    _, raw = accounts.issue_api_token(game_master=gm)
    listed = {g["name"]: g["roles"] for g in api.get("/games", raw).get_json()["games"]}
    assert listed == {"Ben's": ["game_master"], "Riddle": ["player"]}
    assert api.get(f"/games/{cast.game.id}/turn", raw).status_code == 200
    assert api.get(f"/games/{cast.game.id}/status", raw).status_code == 403
    assert api.get(f"/games/{own.id}/status", raw).status_code == 200


def test_a_withdrawn_player_still_reads_the_game_but_cannot_send_turns(api, cast):
    games.withdraw_player(cast.ben)
    assert api.get(f"/games/{cast.game.id}", cast["ben"]).status_code == 200
    response = api.put(f"/games/{cast.game.id}/turn", cast["ben"], {"text": "TIP A RD1"})
    assert response.status_code == 409
    assert error_of(response)["code"] == "wrong_state"
    assert "withdrawn" in error_of(response)["message"]


def test_posts_need_no_csrf_token_although_the_web_pages_enforce_csrf(app, api, cast):
    assert app.config.get("WTF_CSRF_ENABLED", True)
    assert "csrf" in app.extensions
    response = api.post(f"/games/{cast.game.id}/pause", cast["gm"])
    assert response.status_code == 200
    assert response.get_json()["state"] == "paused"


def test_a_tokens_last_use_is_written_at_most_every_few_minutes(api, cast, now):
    token, raw = accounts.issue_api_token(player=cast.ada, label="script")
    assert token.last_used_at is None
    assert accounts.token_for(raw, now=now).last_used_at == now
    soon = now + accounts.TOKEN_TOUCH - timedelta(seconds=1)
    assert accounts.token_for(raw, now=soon).last_used_at == now  # no write per request
    later = now + accounts.TOKEN_TOUCH
    assert accounts.token_for(raw, now=later).last_used_at == later
