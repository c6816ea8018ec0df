"""Every API error as JSON: ``{"error": {"code", "message", "details"}}`` with its status.

Service errors are mapped by their stable ``.code``; HTTP errors raised by Flask
(bad JSON, unknown URL, wrong method) get the same shape. The session is rolled
back first, so a half-done change is never committed by a later request.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, g, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound
from werkzeug.routing import PathConverter

from ..extensions import db
from ..i18n import N_, translate
from ..orders import localized
from ..rules.gems import LANGUAGES  # the turn language's: an error names gems and keywords
from ..services.errors import Invalid, ServiceError, TurnRefused
from . import PREFIX, bp

# HTTP status per ServiceError code; codes not listed are 400.
STATUS = {
    "invalid": 400,
    "unauthorized": 401,
    "invalid_token": 401,
    "forbidden": 403,
    "not_found": 404,
    "wrong_state": 409,
    "round_closed": 409,
    "turn_refused": 422,
    "rate_limited": 429,
}
_HTTP_CODES = {400: "invalid", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 413: "too_large", 415: "unsupported_media_type",
               500: "internal_error"}


class BadInput(Invalid):
    """A request field that is missing, of the wrong type or out of range: the
    field's name (never translated) before the message (a message id, as for
    every ServiceError)."""

    def __init__(self, field: str, message: str, /, **params: object):
        self.field = field
        super().__init__(message, **params)

    def text(self, lang: str) -> str:
        said = super().text(lang)
        return f"{self.field}: {said}" if self.field else said


class Unauthorized(ServiceError):
    """No bearer token, or one that is unknown or revoked."""

    code = "unauthorized"

    def __init__(self, message: str, code: str = "unauthorized"):
        super().__init__(message)
        self.code = code


_OURS = N_("something went wrong on our side; nothing you sent was lost")


def caller_language() -> str:
    """The language of the caller's messages: the token's player or GM account
    setting, else the best of Accept-Language among LANGUAGES, else English."""
    caller = g.get("api_caller")
    person = caller and (caller.player or caller.game_master)
    chosen = getattr(person, "language", None)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "en"


def error_response(status: int, code: str, message: str, details: Any = None,
                   headers: dict | None = None) -> tuple[Response, int, dict]:
    """The one JSON shape of every error."""
    body = {"error": {"code": code, "message": message, "details": details}}
    return jsonify(body), status, headers or {}


@bp.errorhandler(ServiceError)
def service_error(exc: ServiceError):
    """A service refused: its code, its message (in the caller's language), and for
    turns every bad line."""
    db.session.rollback()
    lang = caller_language()
    details: Any = None
    headers = {}
    if isinstance(exc, TurnRefused):
        details = [{"line": e.line, "text": e.text, "message": e.message, "hint": e.hint}
                   for e in localized(exc.errors, lang, translate)]
    elif isinstance(exc, BadInput):
        details = {"field": exc.field}
    if exc.code in ("unauthorized", "invalid_token"):
        headers["WWW-Authenticate"] = 'Bearer realm="vpsleuth"'
    return error_response(STATUS.get(exc.code, 400), exc.code, exc.text(lang), details, headers)


def http_error(exc: HTTPException):
    """Errors raised by Flask itself (unknown URL, wrong method, a failure of ours)."""
    db.session.rollback()
    status = exc.code or 500
    code = _HTTP_CODES.get(status, (exc.name or "error").lower().replace(" ", "_"))
    message = exc.description or exc.name
    if status == 500:  # Flask has logged the exception already
        message = translate(caller_language(), _OURS)
    headers = {}
    if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
        headers["Allow"] = ", ".join(sorted(exc.valid_methods))
    return error_response(status, code, message, None, headers)


# By class, and by code too: an app-wide handler for a code (the web pages' HTML 404)
# is preferred by Flask over a blueprint's handler for the class.
bp.register_error_handler(HTTPException, http_error)
for _code in _HTTP_CODES:
    bp.register_error_handler(_code, http_error)


class AnyPathConverter(PathConverter):
    """Like path, but across line breaks too: every unserved URL gets the API's 404."""

    regex = "[^/](?s:.)*?"


CATCH_ALL = "api.no_such_route"
_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]


def served_methods() -> set[str]:
    """The methods that a route other than the catch-all serves at the requested URL."""
    adapter = current_app.url_map.bind_to_environ(request.environ)
    allowed = set()
    for method in _METHODS:
        try:
            rule, _ = adapter.match(request.path, method=method, return_rule=True)
        except HTTPException:
            continue
        if rule.endpoint != CATCH_ALL:
            allowed.add(method)
    return allowed


@bp.before_request
def answer_options() -> Response | None:
    """OPTIONS: Allow names what the URL really serves, not what the catch-all takes.

    Flask's own answer counts the catch-all route too, so it advertised PUT, PATCH
    and DELETE everywhere; an unserved URL gets the API's 404, as for any method.
    """
    if request.method != "OPTIONS":
        return None
    allowed = served_methods()
    if not allowed:
        return no_such_route(request.path)
    allowed |= {"OPTIONS"} | ({"HEAD"} if "GET" in allowed else set())
    return Response(status=200, headers={"Allow": ", ".join(sorted(allowed))})


@bp.route("/", defaults={"path": ""}, methods=_METHODS, endpoint="no_such_route")
@bp.route("/<api_any_path:path>", methods=_METHODS, endpoint="no_such_route")
def no_such_route(path: str):
    """Anything under /api/v1 that no route serves: a JSON 404 (or 405 with Allow)."""
    allowed = served_methods()
    if allowed:
        raise MethodNotAllowed(valid_methods=sorted(allowed),
                               description=f"{request.method} is not allowed here; use "
                                           f"{' or '.join(sorted(allowed))}")
    raise NotFound(f"no such API URL: {request.path} (the API lives under {PREFIX}; "
                   f"see {PREFIX}/openapi.json)")
