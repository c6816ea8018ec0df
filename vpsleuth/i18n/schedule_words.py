"""A deadline schedule and its errors in the reader's words.

The schedule (vpsleuth/rules/schedule.py) gives datetimes and message ids;
here they become a line for a page, a mail, the API or the command line:
"every 7 days at 20:00 Europe/Berlin, first 2026-12-06", "alle 7 Tage um
20:00 Europe/Berlin, erstmals 2026-12-06", with the listed deadlines of an
explicit schedule written as each reader reads a deadline (i18n.dates).
"""

from __future__ import annotations

from ..rules.gems import in_words
from ..rules.schedule import Moment, Schedule, ScheduleError
from . import ntranslate, translate
from .dates import deadline_text


def schedule_text(schedule: Schedule, lang: str = "en") -> str:
    """Say the schedule in a line, in ``lang``."""
    every = ntranslate(lang, "every day", "every {num} days", schedule.every_days).format(
        num=schedule.every_days)
    if schedule.first is not None:
        return translate(lang, "{every} at {time} {zone}, first {date}").format(
            every=every, time=f"{schedule.first:%H:%M}", zone=schedule.timezone,
            date=f"{schedule.first:%Y-%m-%d}")
    listed = "; ".join(deadline_text(d, schedule.timezone, lang) for d in schedule.deadlines)
    return translate(lang, "{deadlines}; then {every} ({zone})").format(
        deadlines=listed, every=every, zone=schedule.timezone)


def schedule_error_text(error: ScheduleError, lang: str = "en") -> str:
    """What is wrong with a schedule, in ``lang``; the deadlines it names as ``lang``'s
    readers read them."""
    return translate(lang, error.message_id).format(**{
        key: deadline_text(value.at, value.timezone, lang) if isinstance(value, Moment)
        else in_words(value, lang) for key, value in error.params.items()})
