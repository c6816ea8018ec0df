"""Reading request JSON: each field checked, every refusal naming the field.

Only the shape is checked here (types, lengths, ranges the database can hold);
whether a value makes sense in the game is for the services to say.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from ..i18n import N_
from ..rules import ATTRIBUTES, GEM_BY_CODE, LOCATIONS, PLACEHOLDERS
from ..rules.schedule import LOCAL_FORMAT
from ..web.inputs import MAX_ID  # noqa: F401  (ids and round numbers, as in the routes)
from .errors import BadInput

ATTRIBUTE_CODES = tuple(a.code for a in ATTRIBUTES)
_WORD = {a.code: a.word("en") for a in ATTRIBUTES}
MAX_TURN_TEXT = 65536
MAX_EMAIL = 254
MAX_BODY = 256 * 1024
MIN_YEAR, MAX_YEAR = 2000, 2999  # far from datetime's limits, so offsets cannot overflow
# C0 controls, DEL, and lone surrogates (which no database can store as text).
REQUIRED = N_("this field is required")
MUST_BE_STRING = N_("must be a string")
AT_MOST = N_("must be at most {most} characters")
_CONTROL = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")
_TURN_FIELDS = {"question", "tips", "drop", "drop_all", "repeat"}


def json_object(allowed: set[str], required: set[str] = frozenset()) -> dict:
    """The request body as a JSON object with only ``allowed`` keys and every ``required`` one."""
    too_large = f"the request body is too large (at most {MAX_BODY} bytes)"
    if (request.content_length or 0) > MAX_BODY:
        raise RequestEntityTooLarge(too_large)  # 413, as for the web's forms and chunked bodies
    request.max_content_length = MAX_BODY  # a body sent without a length (chunked)
    raw = request.get_data()
    try:
        body = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        raise BadInput("", N_("the request body is not valid JSON")) from None
    if not isinstance(body, dict):
        raise BadInput("", N_("the request body must be a JSON object"))
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise BadInput(unknown[0], N_("unknown field; allowed fields are {fields}"),
                       fields=", ".join(sorted(allowed)) or "none")
    for name in sorted(required):
        if name not in body:
            raise BadInput(name, REQUIRED)
    return body


def integer(value: Any, field: str, low: int, high: int) -> int:
    """A whole number (not a boolean) from ``low`` to ``high``; 5.0 counts as 5.

    JSON does not tell 5 from 5.0, and neither does the document's "integer".
    """
    if isinstance(value, float) and value.is_integer() and low <= value <= high:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(field, N_("must be a whole number from {low} to {high}"), low=low,
                       high=high)
    if not low <= value <= high:
        raise BadInput(field, N_("must be from {low} to {high}, not {value}"), low=low,
                       high=high, value=value)
    return value


def boolean(value: Any, field: str) -> bool:
    """true or false, nothing else."""
    if not isinstance(value, bool):
        raise BadInput(field, N_("must be true or false"))
    return value


def line(value: Any, field: str, max_length: int) -> str:
    """A one-line string: no control characters, at most ``max_length`` characters."""
    if not isinstance(value, str):
        raise BadInput(field, MUST_BE_STRING)
    if len(value) > max_length:
        raise BadInput(field, AT_MOST, most=max_length)
    if _CONTROL.search(value):
        raise BadInput(field, N_("must be one line of text without control characters"))
    return value


def choice(value: Any, field: str, options: tuple[str, ...]) -> str:
    """One of ``options``, exactly as written there."""
    if not isinstance(value, str) or value not in options:
        raise BadInput(field, N_("must be one of {options}"), options=", ".join(options))
    return value


def array(value: Any, field: str, max_items: int, min_items: int = 0) -> list:
    """A list of ``min_items`` to ``max_items`` items (checked one by one by the caller)."""
    if not isinstance(value, list):
        raise BadInput(field, N_("must be a list"))
    if not min_items <= len(value) <= max_items:
        raise BadInput(field, N_("must have {least} to {most} items"), least=min_items,
                       most=max_items)
    return value


def email(value: Any, field: str = "email") -> str:
    """An address as one line of at most 254 characters (the service checks its form)."""
    return line(value, field, MAX_EMAIL)


def aware_time(value: Any, field: str) -> datetime:
    """An ISO 8601 time with its UTC offset, e.g. 2026-12-13T20:00:00+01:00."""
    text = line(value, field, 64)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise BadInput(field, N_("'{text}' is not an ISO 8601 time like "
                                 "2026-12-13T20:00:00+01:00"), text=text) from None
    if moment.tzinfo is None:
        raise BadInput(field, N_("give the time with its UTC offset, e.g. "
                                 "2026-12-13T20:00:00+01:00"))
    return _in_range(moment, field)


def schedule_time(value: Any, field: str) -> str | datetime:
    """A deadline as given: a local time ('2026-12-06 20:00') or ISO 8601 with an offset.

    Text that is no time at all is passed on as it is: the schedule says what is wrong.
    """
    text = line(value, field, 64)
    for parse in (datetime.fromisoformat, _local_time):
        try:
            moment = parse(text)
        except ValueError:
            continue
        return _in_range(moment, field)
    return text


def _local_time(text: str) -> datetime:
    return datetime.strptime(text.strip().replace("T", " ", 1), LOCAL_FORMAT)


def _in_range(moment: datetime, field: str) -> datetime:
    if not MIN_YEAR <= moment.year <= MAX_YEAR:
        raise BadInput(field, N_("must be in the years {first} to {last}"), first=MIN_YEAR,
                       last=MAX_YEAR)
    return moment


def query_choice(name: str, options: tuple[str, ...], default: str) -> str:
    """A query parameter that is one of ``options``, or ``default`` if not given."""
    value = request.args.get(name)
    return default if value is None else choice(value, name, options)


def turn_body() -> tuple[str, int | None]:
    """The turn-language text a turn request asks for, and the round it is meant for.

    Either ``{"text": "..."}`` (sent as it is) or structured fields, which are
    written out as turn-language lines; both then go through submit_turn.
    """
    body = json_object(_TURN_FIELDS | {"text", "round"})
    round_number = None
    if "round" in body:
        round_number = integer(body["round"], "round", 1, MAX_ID)
    if "text" in body:
        given = sorted(_TURN_FIELDS & set(body))
        if given:
            raise BadInput(given[0], N_("give either text or the structured fields, not both"))
        text = body["text"]
        if not isinstance(text, str) or not text.strip():
            raise BadInput("text", N_("must be a non-empty string in the turn language"))
        if len(text) > MAX_TURN_TEXT:
            raise BadInput("text", AT_MOST, most=MAX_TURN_TEXT)
        return text, round_number
    text = structured_text(body)
    if not text:
        raise BadInput("", N_("the turn is empty: give text, or at least one of question, "
                              "tips, drop, drop_all: true or repeat: true"))
    return text, round_number


def structured_text(body: dict) -> str:
    """Turn-language lines for a structured turn (built from checked codes only).

    The lines of a turn apply in order (RULES.md 6a) but fields have none, so
    they are written in the order that reads as meant: DROP ALL clears, REPEAT
    brings last round's tips, DROP withdraws (repeated ones too), tips win.
    """
    lines = []
    if "drop_all" in body and boolean(body["drop_all"], "drop_all"):
        lines.append("DROP ALL")
    if "repeat" in body and boolean(body["repeat"], "repeat"):
        lines.append("REPEAT")
    for i, code in enumerate(array(body.get("drop", []), "drop", len(GEM_BY_CODE))):
        lines.append(f"DROP {choice(code, f'drop[{i}]', tuple(GEM_BY_CODE))}")
    if "question" in body:
        lines.append(_question_line(body["question"]))
    tips = body.get("tips", {})
    if not isinstance(tips, dict):
        raise BadInput("tips", N_("must be an object of gem code to location, e.g. "
                                  "{\"RD1\": \"A\"}"))
    for code, location in tips.items():
        choice(code, f"tips.{code}", tuple(GEM_BY_CODE))
        choice(location, f"tips.{code}", LOCATIONS)
        lines.append(f"TIP {location} {code}")
    return "\n".join(lines)


def _question_line(question: Any) -> str:
    if question is None:
        return "QUESTION NONE"
    if not isinstance(question, dict):
        raise BadInput("question", N_("must be an object {placeholder, attributes} or null"))
    unknown = sorted(set(question) - {"placeholder", "attributes"})
    if unknown:
        raise BadInput(f"question.{unknown[0]}",
                       N_("unknown field; give placeholder and attributes"))
    for name in ("placeholder", "attributes"):
        if name not in question:
            raise BadInput(f"question.{name}", REQUIRED)
    placeholder = choice(question["placeholder"], "question.placeholder", PLACEHOLDERS)
    codes = array(question["attributes"], "question.attributes", 2, 1)
    words = [_WORD[choice(c, f"question.attributes[{i}]", ATTRIBUTE_CODES)]
             for i, c in enumerate(codes)]
    return f"QUESTION {placeholder} {' '.join(words)}"
