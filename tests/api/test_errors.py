"""Errors outside the services: unknown URLs, wrong methods, failures of our own."""

from __future__ import annotations

from vpsleuth.services import access

from .helpers import error_of


def test_an_unknown_api_url_is_a_json_404_even_without_a_token(api):
    response = api.get("/nothing/here", validate=False)
    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"
    assert "openapi.json" in error_of(response)["message"]
    for path in ("/games/not-a-number", "/games/%0A/start", "/"):
        response = api.get(path, validate=False)
        assert response.status_code == 404, path
        assert error_of(response)["details"] is None, path


def test_ids_out_of_range_are_json_404s_like_any_unknown_game(api, cast):
    for path in ("/games/0", "/games/99999999999999999999", "/games/0/turn",
                 f"/games/{cast.game.id}/players/0/withdraw",
                 f"/games/{cast.game.id}/rounds/0/report"):
        method = "POST" if path.endswith("withdraw") else "GET"
        response = api.call(method, path, cast["gm"])
        assert response.status_code == 404, path
        assert error_of(response)["code"] == "not_found", path


def test_a_known_url_with_the_wrong_method_is_a_json_405_naming_the_allowed_ones(api, cast):
    response = api.call("DELETE", f"/games/{cast.game.id}", cast["gm"], validate=False)
    assert response.status_code == 405
    assert error_of(response)["code"] == "method_not_allowed"
    assert response.headers["Allow"] == "GET"


def test_an_unexpected_failure_is_a_json_500_that_gives_nothing_away(app, api, cast,
                                                                       monkeypatch):
    def broken(viewer):
        raise RuntimeError("internal detail: " + cast.game.secret.salt)

    monkeypatch.setattr(access, "games_of", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = api.get("/games", cast["gm"], validate=False)
    assert response.status_code == 500
    assert error_of(response)["code"] == "internal_error"
    assert "nothing you sent was lost" in error_of(response)["message"]
    assert cast.game.secret.salt not in response.get_data(as_text=True)
