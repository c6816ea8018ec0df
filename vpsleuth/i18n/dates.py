"""Dates, times, numbers and time left in the reader's words, formatted by Babel.

A deadline is written in the reader's (or the game's) time zone with the
locale's own weekday and month names: "Sun 6 Dec 2026, 20:00 CET",
"So. 6. Dez. 2026, 20:00 MEZ", "dom 6 dic 2026, 20:00 CET", alike in mails,
pages and the command line. The zone is written as its usual abbreviation
(German readers know CET as MEZ), since the locales' own zone names come out as
long names for some zones and as bare offsets for others. Time left is said in
the locale's plural forms.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from babel.dates import format_date, format_datetime
from babel.numbers import format_decimal
from jinja2 import pass_context

from ..rules.schedule import ScheduleError, to_local
from . import locale_of, ntranslate, translate

__all__ = ["day_text", "deadline_text", "decimal", "moment_text", "number_text",
           "short_time_left", "time_left"]

_PATTERNS = {"de": "EEE d. MMM y, HH:mm"}
_PATTERN = "EEE d MMM y, HH:mm"
_ZONE_NAMES = {"de": {"CET": "MEZ", "CEST": "MESZ"}}


def deadline_text(moment: datetime, timezone: str, lang: str = "en") -> str:
    """``moment`` (aware) as a reader of ``lang`` in ``timezone`` reads a deadline."""
    local = to_local(moment, timezone)
    when = format_datetime(local, _PATTERNS.get(lang, _PATTERN), tzinfo=local.tzinfo,
                           locale=locale_of(lang))
    zone = local.tzname() or timezone
    return f"{when} {_ZONE_NAMES.get(lang, {}).get(zone, zone)}"


def moment_text(moment: datetime, timezone: str, lang: str = "en") -> str:
    """``moment`` in ``timezone`` (UTC when the zone is unknown), as a deadline."""
    try:
        return deadline_text(moment, timezone, lang)
    except ScheduleError:
        return deadline_text(moment, "UTC", lang)


def day_text(day: date, lang: str = "en") -> str:
    """A calendar day: "30 Nov 2026", "30.11.2026", "30 nov 2026"."""
    return format_date(day, "medium", locale=locale_of(lang))


@pass_context
def decimal(context, number: float, places: int = 1) -> str:
    """Template filter ``x|decimal(2)``: ``places`` decimals in the template's ``lang``
    (101.5 / 101,5), for pages and mails alike."""
    return format_decimal(number, format="#,##0." + "0" * places,
                          locale=locale_of(context.get("lang", "en")))


def number_text(number: float, lang: str = "en") -> str:
    """A number with the locale's separators: 1,234.5 / 1.234,5."""
    return format_decimal(number, locale=locale_of(lang))


def time_left(deadline: datetime, now: datetime, lang: str = "en") -> str:
    """"2 days 3 hours left", "noch 45 Minuten", or that the deadline has passed.

    Whole days and hours, or under six hours hours and minutes; each unit in the
    plural form of the locale (ngettext).
    """
    seconds = int((deadline - now).total_seconds())
    if seconds <= 0:
        return translate(lang, "the deadline has passed")
    minutes = max(1, seconds // 60)
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    parts = [ntranslate(lang, "{n} day", "{n} days", days),
             ntranslate(lang, "{n} hour", "{n} hours", hours)]
    counts = (days, hours)
    if days == 0 and hours < 6:
        parts = [parts[1], ntranslate(lang, "{n} minute", "{n} minutes", mins)]
        counts = (hours, mins)
    text = " ".join(part.format(n=n) for part, n in zip(parts, counts, strict=True) if n)
    return translate(lang, "{} left").format(text)


def short_time_left(deadline: datetime, lang: str, now: datetime) -> str:
    """The GM board's compact form: "2 d 5 h left", "noch 2 T 5 Std", or "passed"."""
    left = deadline - now
    if left <= timedelta(0):
        return translate(lang, "passed")
    days, rest = divmod(int(left.total_seconds()), 86400)
    hours, minutes = rest // 3600, rest % 3600 // 60
    d, h, m = translate(lang, "{n} d"), translate(lang, "{n} h"), translate(lang, "{n} min")
    units = ((days, d), (hours, h)) if days else (
        ((hours, h), (minutes, m)) if hours else ((max(minutes, 1), m),))
    return translate(lang, "{} left").format(" ".join(unit.format(n=n) for n, unit in units))
