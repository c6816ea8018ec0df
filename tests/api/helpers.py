"""Plain helpers for the API tests: the validating client, the cast, JSON digging.

The API reads the real clock, so games here get deadlines a week after the real
now (not the suite's fixed NOW).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta

from openapi_core import OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from werkzeug.test import EnvironBuilder

from vpsleuth.models import Game, Player, utcnow
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import games

TIMEZONE = "Europe/Berlin"


@dataclass
class Api:
    """A test client that sends bearer tokens and validates each response it gets."""

    client: object
    spec: OpenAPI
    seen: list = field(default_factory=list)

    def call(self, method: str, path: str, token: str | None = None, *, json_body=None,
             data: str | None = None, validate: bool = True, headers: dict | None = None):
        headers = dict(headers or {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        extra = {"json": json_body} if json_body is not None else {}
        if data is not None:
            extra = {"data": data, "content_type": "application/json"}
        url = f"/api/v1{path}"
        response = self.client.open(url, method=method, headers=headers, **extra)
        assert response.content_type == "application/json", response.data[:200]
        self.seen.append(response.get_json())
        if validate:
            # A request of its own: the app has read the body of the one it served.
            request = EnvironBuilder(url, method=method, headers=headers, **extra).get_request()
            self.spec.validate_response(WerkzeugOpenAPIRequest(request),
                                        WerkzeugOpenAPIResponse(response))
        return response

    def get(self, path, token=None, **kw):
        return self.call("GET", path, token, **kw)

    def post(self, path, token=None, body=None, **kw):
        return self.call("POST", path, token, json_body=body, **kw)

    def put(self, path, token=None, body=None, **kw):
        return self.call("PUT", path, token, json_body=body, **kw)

    def patch(self, path, token=None, body=None, **kw):
        return self.call("PATCH", path, token, json_body=body, **kw)


@dataclass
class Cast:
    """Gail runs "Riddle" (Ada and Ben play), Otto runs "Other" (Cy plays)."""

    game: Game
    other: Game
    ada: Player
    ben: Player
    cy: Player
    tokens: dict[str, str]

    def __getitem__(self, who: str) -> str:
        return self.tokens[who]


def error_of(response) -> dict:
    """The error object of an error response (its shape is checked by the spec)."""
    return response.get_json()["error"]


def next_week_local() -> str:
    return to_local(utcnow() + timedelta(days=7), TIMEZONE).strftime("%Y-%m-%d %H:%M")


def make_game(name: str, gm_id: int | None, players: list[tuple[str, str]],
              start: bool = True, **rules) -> Game:
    """A game with a deadline a week from now, its players added, started unless not."""
    game = games.create_game(name, weekly(next_week_local(), TIMEZONE), Ruleset(**rules),
                             game_master_id=gm_id)
    for player_name, email in players:
        games.add_player(game, player_name, email)
    if start:
        games.start_game(game, seed=7)
    return game


def all_keys(value) -> set[str]:
    """Every object key anywhere in a JSON value."""
    if isinstance(value, dict):
        return set(value) | set().union(*(all_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(all_keys(v) for v in value))
    return set()


def dumped(value) -> str:
    return json.dumps(value, ensure_ascii=False)
