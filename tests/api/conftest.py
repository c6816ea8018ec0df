"""API fixtures: a client that checks every response against openapi.json, and a cast."""

from __future__ import annotations

import pytest
from openapi_core import OpenAPI

from vpsleuth.api.openapi import document
from vpsleuth.services import accounts

from .helpers import Api, Cast, make_game


@pytest.fixture(scope="session")
def spec() -> OpenAPI:
    return OpenAPI.from_dict(document())


@pytest.fixture
def api(app, spec) -> Api:
    return Api(app.test_client(), spec)


@pytest.fixture
def cast(app) -> Cast:
    gail = accounts.create_game_master("gail@example.org", "Gail")
    otto = accounts.create_game_master("otto@example.org", "Otto")
    game = make_game("Riddle", gail.id, [("Ada", "ada@example.org"), ("Ben", "Ben@Example.org")])
    other = make_game("Other", otto.id, [("Cy", "cy@example.org")])
    ada, ben = game.players
    cy = other.players[0]
    tokens = {
        "gm": accounts.issue_api_token(game_master=gail)[1],
        "other_gm": accounts.issue_api_token(game_master=otto)[1],
        "ada": accounts.issue_api_token(player=ada)[1],
        "ben": accounts.issue_api_token(player=ben)[1],
        "cy": accounts.issue_api_token(player=cy)[1],
    }
    return Cast(game, other, ada, ben, cy, tokens)
