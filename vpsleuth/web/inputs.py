"""What a request may carry: ids a database column can hold, bodies of a bounded size.

Bad input gets a 404, 400 or 413 with a page (JSON under /api/), never a 500:
an id beyond a column's range made SQLite raise OverflowError and PostgreSQL a
DataError, and a 100 MB form was read whole into memory.
"""

from __future__ import annotations

import re
from typing import IO

from flask import Flask, Request, render_template, request
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.routing import IntegerConverter, Map
from werkzeug.utils import cached_property
from werkzeug.wsgi import LimitedStream

from ..i18n import N_, translate
from ..services.errors import Invalid
from .session import current_language

MAX_ID = 2**31 - 1  # ids and round numbers fit 32-bit integers in every database
_WHOLE = re.compile(r"[+-]?\d{1,18}")


def at_most(limit: int) -> str:
    """A regular expression for the whole numbers from 0 to ``limit`` (in plain digits)."""
    digits = str(limit)
    options = [rf"\d{{1,{len(digits) - 1}}}"] if len(digits) > 1 else []
    for i, digit in enumerate(digits):
        if digit != "0":
            lower = "0" if digit == "1" else f"[0-{int(digit) - 1}]"
            rest = len(digits) - i - 1
            options.append(digits[:i] + lower + (rf"\d{{{rest}}}" if rest else ""))
    return f"(?:{'|'.join([*options, digits])})"


class IdConverter(IntegerConverter):
    """``<int:...>`` from 0 to MAX_ID: a larger number matches no route, so it is a 404.

    The range is in the pattern, not only in ``to_python``: werkzeug answers a number
    refused there with a 405 when the same path has a route for another method.
    """

    regex = at_most(MAX_ID)

    def __init__(self, map: Map, fixed_digits: int = 0, min: int | None = None,  # noqa: A002
                 max: int | None = MAX_ID, signed: bool = False) -> None:  # noqa: A002
        super().__init__(map, fixed_digits, min, max, signed)


class CappedStream(LimitedStream):
    """A body sent without a length, read up to the cap: a byte beyond it is a 413.

    werkzeug's own stream stops at the cap when read whole and hands on what it has,
    so a longer body was parsed cut short instead of refused.
    """

    def readall(self) -> bytes:
        data = super().readall()
        if self.is_exhausted and self._stream.read(1):
            raise RequestEntityTooLarge()
        return data


class CappedRequest(Request):
    """Flask's request, with a body of no stated length capped by CappedStream."""

    @cached_property
    def stream(self) -> IO[bytes]:
        limit = self.max_content_length
        if (self.content_length is None and limit is not None and not self.shallow
                and "wsgi.input_terminated" in self.environ):
            return CappedStream(self.environ["wsgi.input"], limit, is_max=True)
        return super().stream


def whole_number(values: MultiDict, name: str, default: int | None = None, *,
                 low: int = 1, high: int = MAX_ID) -> int | None:
    """A whole-number query or form parameter from ``low`` to ``high``.

    ``default`` when it is absent or empty; anything else is refused (400) with a
    message naming the parameter, never passed on to a query it would overflow.
    """
    raw = (values.get(name) or "").strip()
    if not raw:
        return default
    if not _WHOLE.fullmatch(raw) or not low <= int(raw) <= high:
        raise Invalid(N_("{name} must be a whole number from {low} to {high}"),
                      name=name, low=low, high=high)
    return int(raw)


def init_app(app: Flask) -> None:
    """The id converter (before any route is added) and the page for too large a body.

    MAX_CONTENT_LENGTH (config/default.py) makes werkzeug refuse a longer body
    before reading it: by its Content-Length, or, sent without one, once that
    much has been read.
    """
    app.url_map.converters["int"] = IdConverter
    app.request_class = CappedRequest

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc: RequestEntityTooLarge):
        kib = (request.max_content_length or 0) // 1024
        if request.path.startswith("/api/"):
            message = f"the request body is too large (at most {kib} KiB)"
            return {"error": {"code": "too_large", "message": message, "details": None}}, 413
        message = translate(current_language(),
                            "That was too much at once: at most {kib} KiB are accepted."
                            ).format(kib=kib)
        return render_template("web/error.html", message=message), 413
