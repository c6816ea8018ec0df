"""The OpenAPI document: valid, served without a token, and true to the routes."""

from __future__ import annotations

import json
import re

import pytest
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_core.exceptions import OpenAPIError
from openapi_spec_validator import validate
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Response

from vpsleuth.api.errors import CATCH_ALL
from vpsleuth.api.openapi import document

_CONVERTER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
_IGNORED = {"HEAD", "OPTIONS"}
ERROR = {"error": {"code": "wrong_state", "message": "m", "details": None}}


def routes_of_blueprint(app) -> set[tuple[str, str]]:
    """(path as in the document, method) for every route the API blueprint serves."""
    found = set()
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("api.") or rule.endpoint == CATCH_ALL:
            continue
        path = _CONVERTER.sub(r"{\1}", rule.rule.removeprefix("/api/v1"))
        found |= {(path, m.lower()) for m in rule.methods - _IGNORED}
    return found


def operations_of_document() -> set[tuple[str, str]]:
    return {(path, method) for path, item in document()["paths"].items() for method in item}


def test_the_document_is_a_valid_openapi_3_1_document():
    validate(document())
    assert document()["openapi"].startswith("3.1")


def test_every_route_is_in_the_document_and_every_documented_operation_is_a_route(app):
    routes, documented = routes_of_blueprint(app), operations_of_document()
    assert routes - documented == set(), "routes missing from openapi.json"
    assert documented - routes == set(), "operations in openapi.json that no route serves"
    assert ("/games/{game_id}/turn", "put") in routes


def test_every_operation_has_a_unique_id_and_documents_401_unless_public():
    ids = []
    for path, item in document()["paths"].items():
        for method, operation in item.items():
            ids.append(operation["operationId"])
            public = operation.get("security") == []
            assert public or "401" in operation["responses"], (path, method)
    assert len(ids) == len(set(ids))
    public = [p for p, item in document()["paths"].items()
              if any(op.get("security") == [] for op in item.values())]
    assert public == ["/openapi.json", "/ratings", "/ratings/{profile_id}"]  # the leaderboard


def test_the_validating_test_client_notices_a_response_the_document_does_not_allow(spec):
    request = EnvironBuilder("/api/v1/me", method="GET").get_request()
    for body, status in [({"kind": "player"}, 200), (ERROR, 409)]:
        response = Response(json.dumps(body), status=status, content_type="application/json")
        with pytest.raises(OpenAPIError):
            spec.validate_response(WerkzeugOpenAPIRequest(request),
                                   WerkzeugOpenAPIResponse(response))


def test_the_document_is_served_as_json_without_a_token(api):
    response = api.get("/openapi.json")
    assert response.status_code == 200
    assert response.get_json() == document()
    assert response.get_json()["components"]["securitySchemes"]["bearerAuth"]["scheme"] == \
        "bearer"

