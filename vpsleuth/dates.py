"""Deadlines in mails and reports, formatted by Babel for the reader's locale.

"Sun 6 Dec 2026, 20:00 CET", "So. 6. Dez. 2026, 20:00 MEZ", "dom 6 dic 2026,
20:00 CET": the locale's own weekday and month names (babel.dates) in the
reader's time zone. The zone is written as its usual abbreviation (German
readers know CET as MEZ), since the locales' own zone names come out as long
names for some zones and as bare offsets for others. The command line keeps
schedule.format_deadline, which is English.
"""

from __future__ import annotations

from datetime import datetime

from babel.dates import format_datetime

from .i18n import locale_of
from .schedule import to_local

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

