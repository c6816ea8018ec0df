"""Bad input never becomes a 500: ids and numbers beyond what a database column holds.

SQLite raised OverflowError and PostgreSQL a DataError for them, logged as errors.
"""

from __future__ import annotations

import logging
import re

import pytest
from werkzeug.routing import IntegerConverter

from vpsleuth.services import accounts
from vpsleuth.web.inputs import MAX_ID, at_most

HUGE = ("99999999999999999999", str(2**31), str(2**63))
METHODS = ("GET", "POST", "PUT", "PATCH")


@pytest.mark.parametrize("limit", [0, 1, 9, 10, 99, 100, 101, 1000, 20304, 1110])
def test_the_id_pattern_matches_exactly_the_numbers_up_to_its_limit(limit):
    pattern = re.compile(at_most(limit))
    assert [n for n in range(limit * 3 + 20) if pattern.fullmatch(str(n))] == \
        list(range(limit + 1))


def test_the_id_pattern_stops_at_the_largest_postgresql_integer():
    pattern = re.compile(at_most(MAX_ID))
    for n in (0, 7, 10**9, 1999999999, 2000000000, 2147483639, MAX_ID):
        assert pattern.fullmatch(str(n)), n
    for n in (MAX_ID + 1, 2147483650, 2147483700, 2150000000, 3 * 10**9, 10**10, 2**63):
        assert not pattern.fullmatch(str(n)), n


def int_rules(app) -> list:
    """Every rule with an integer part, each with the methods it serves."""
    return [rule for rule in app.url_map.iter_rules()
            if any(isinstance(c, IntegerConverter) for c in rule._converters.values())]


def urls_with(rule, valid: dict[str, int], huge: str) -> list[str]:
    """The rule's URL with each integer part huge in turn (the others valid), then all huge."""
    names = [n for n, c in rule._converters.items() if isinstance(c, IntegerConverter)]
    chosen = [{n: (huge if n == m else str(valid[n])) for n in names} for m in names]
    chosen.append({n: huge for n in names})
    return [re.sub(r"<int:(\w+)>", lambda m, c=c: c[m.group(1)], rule.rule) for c in chosen]


@pytest.fixture
def no_errors_logged(caplog):
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


def test_every_route_with_an_id_answers_one_beyond_any_column_with_404(
        app, gm_account, gm_web, gm_web_as, gm_running_game, no_errors_logged):
    game = gm_running_game
    player_id = game.players[0].id
    ada = gm_web_as("ada@example.org")
    _, token = accounts.issue_api_token(game_master=gm_account)
    valid = {"game_id": game.id, "player_id": player_id, "number": 1, "message_id": 1,
             "token_id": 1, "request_id": 1, "post_id": 1, "absence_id": 1}
    tried = 0
    for rule in int_rules(app):
        for huge in HUGE:
            for url in urls_with(rule, valid, huge):
                for method in sorted(rule.methods & set(METHODS)):
                    if url.startswith("/api/"):
                        response = gm_web.client.open(
                            url, method=method, json={} if method != "GET" else None,
                            headers={"Authorization": f"Bearer {token}"})
                        error = response.get_json()["error"]
                        assert (error["code"], error["details"]) == ("not_found", None), url
                    else:
                        web = gm_web if url.startswith("/gm/") else ada
                        response = (web.get(url) if method == "GET"
                                    else web.post(url, {"confirm": "yes"}))
                    assert response.status_code == 404, (method, url, response.status_code)
                    tried += 1
    assert tried > 100


@pytest.mark.parametrize("query", ["page=99999999999999999999", "page=2147483648",
                                   "game=99999999999999999999", "game=-99999999999999999999",
                                   "page=-99999999999999999999", "page=abc", "game=x"])
def test_outbox_query_numbers_out_of_range_are_400_not_500(gm_web, gm_running_game, query,
                                                         no_errors_logged):
    response = gm_web.get(f"/gm/outbox?{query}")
    assert response.status_code in (200, 400), response.status_code


def test_the_atom_feed_of_a_huge_game_id_is_404(client, no_errors_logged):
    assert client.get("/games/99999999999999999999/feed.atom?token=x").status_code == 404
    assert client.get("/api/v1/games/99999999999999999999").status_code in (401, 404)


BIG = "99999999999999999999"


def new_game_form(later: str, **changes) -> dict:
    form = {"name": "Huge", "first_deadline": later, "timezone": "Europe/Berlin",
            "schedule_kind": "weekly", "rounds": "12", "first_bonus_round": "5",
            "points_right": "1", "points_wrong": "-2", "bonuses": "3, 2, 1",
            "reminders": "24, 4", "every_days": "7", "language": "en"}
    return {**form, **changes}


@pytest.mark.parametrize("field,value", [
    ("rounds", BIG), ("first_bonus_round", BIG), ("points_right", BIG),
    ("points_wrong", "-" + BIG), ("every_days", BIG), ("bonuses", BIG),
    ("reminders", BIG), ("first_bonus_round", str(2**31)), ("points_right", str(2**31)),
    ("every_days", str(2**31)), ("bonuses", f"{2**31}, 1")])
def test_a_new_game_with_a_number_out_of_range_is_refused_with_the_form(
        gm_web, gm_later, field, value, no_errors_logged):
    response = gm_web.post("/gm/games/new", new_game_form(gm_later(), **{field: value}))
    assert response.status_code == 400
    assert "<form" in response.get_data(as_text=True)


@pytest.mark.parametrize("data", [{"number": BIG}, {"number": str(2**31)}])
def test_resolving_a_round_number_out_of_range_is_refused(gm_web, gm_running_game, data,
                                                          no_errors_logged):
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/resolve", data)
    assert response.status_code in (302, 400)
    assert gm_running_game.open_round.number == 1


@pytest.mark.parametrize("round_", [BIG, str(2**31), "-" + BIG])
def test_a_turn_for_a_round_out_of_range_is_refused(gm_web, gm_web_as, gm_running_game, round_,
                                                    no_errors_logged):
    game = gm_running_game
    player = game.players[0]
    response = gm_web.post(f"/gm/games/{game.id}/turn",
                           {"player": str(player.id), "round": round_, "text": "TIP A RD1"})
    assert response.status_code == 400, response.status_code
    ada = gm_web_as("ada@example.org")
    response = ada.post(f"/games/{game.id}/turn",
                        {"round": round_, "action": "text", "text": "TIP A RD1"})
    assert response.status_code == 400, response.status_code
    assert "round must be a whole number from 1 to 2147483647" in response.get_data(
        as_text=True)


@pytest.mark.parametrize("field", ["token_id", "player_id"])
def test_settings_with_an_id_out_of_range_are_refused(gm_web_as, gm_running_game, field,
                                                      no_errors_logged):
    ada = gm_web_as("ada@example.org")
    action = "revoke" if field == "token_id" else "token"
    response = ada.post("/settings", {"action": action, field: BIG})
    assert response.status_code in (400, 404), response.status_code
