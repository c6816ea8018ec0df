"""What schemathesis found in the API, pinned down as plain tests on both databases."""

from __future__ import annotations

import pytest

from vpsleuth.api.openapi import document
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games
from vpsleuth.services.errors import Invalid

WEEKLY = {"timezone": "Europe/Berlin", "first": "2999-01-10 20:00"}


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def gm_headers(app) -> dict[str, str]:
    gail = accounts.create_game_master("gail@example.org", "Gail")
    return {"Authorization": f"Bearer {accounts.issue_api_token(game_master=gail)[1]}"}


def test_options_names_only_the_methods_the_url_serves(client):
    for path, methods in [("/api/v1/games", "GET, HEAD, OPTIONS, POST"),
                          ("/api/v1/games/1/turn", "GET, HEAD, OPTIONS, POST, PUT"),
                          ("/api/v1/games/1/players/2", "OPTIONS, PATCH")]:
        response = client.options(path)
        assert (response.status_code, response.headers["Allow"]) == (200, methods), path


def test_options_on_a_url_the_api_does_not_serve_is_its_json_404(client):
    response = client.options("/api/v1/no/such/thing")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


def test_a_whole_number_written_with_a_zero_fraction_counts_as_that_number(client, gm_headers):
    body = {"name": "Floats", "schedule": {**WEEKLY, "every_days": 14.0},
            "rules": {"rounds": 6.0, "points_wrong": -2.0}, "reminder_hours": [24.0]}
    response = client.post("/api/v1/games", json=body, headers=gm_headers)
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    assert (game["rules"]["rounds"], game["rules"]["points_wrong"]) == (6, -2)
    assert (game["schedule"]["every_days"], game["reminder_hours"]) == (14, [24])


def test_a_number_with_a_fraction_is_still_not_a_whole_number(client, gm_headers):
    body = {"name": "Fractions", "schedule": WEEKLY, "rules": {"rounds": 6.5}}
    response = client.post("/api/v1/games", json=body, headers=gm_headers)
    assert response.status_code == 400
    assert response.get_json()["error"]["details"] == {"field": "rules.rounds"}


@pytest.mark.parametrize("name", ["Ölwechsel", "ÉTÉ", "Пятница", "Winter ☃"])
def test_a_game_name_taken_already_is_refused_whatever_its_letters(app, name):
    games.create_game(name, weekly("2999-01-10 20:00", "UTC"))
    with pytest.raises(Invalid, match="exists already"):
        games.create_game(name, weekly("2999-01-10 20:00", "UTC"))
    with pytest.raises(Invalid, match="exists already"):
        games.create_game(f"  {name} ", weekly("2999-01-10 20:00", "UTC"))


def test_the_document_says_that_looking_at_the_distribution_needs_confirm_yes():
    [confirm] = [p for p in document()["components"]["parameters"].values()
                 if p["name"] == "confirm"]
    assert confirm["required"] is True and confirm["schema"]["enum"] == ["yes"]
