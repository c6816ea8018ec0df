"""A game's deadline schedule, pure: standard library only, datetimes and message ids out.

Two forms. Weekly: round 1's deadline as a local wall-clock time in a named
IANA zone, then every ``every_days`` days at the same local time, whatever
daylight saving does in between. Explicit: a list of deadlines, continued every
``every_days`` days (7 by default) at the last one's local time when the game
outlasts the list.

Local times that do not exist (spring forward) are moved forward by the length
of the gap (02:30 becomes 03:30 in Berlin); local times that occur twice (fall
back) mean the first occurrence. Both follow PEP 495 with ``fold=0``.

No words here: a ScheduleError is a message id with parameters, a deadline it
names a ``Moment``; vpsleuth/i18n/schedule_words.py says errors and schedules in
the reader's language, with Babel's names of days and months.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from .gems import N_, RuleError

LOCAL_FORMAT = "%Y-%m-%d %H:%M"  # a "T" between date and time is accepted too
EXAMPLE_LOCAL = "2026-12-06 20:00"
EXAMPLE_ZONES = "'Europe/Berlin' or 'America/New_York'"
MAX_EVERY_DAYS = 28
# What the next deadline is after a round closed before its own (Schedule.following).
AFTER_EARLY = ("calendar", "fresh")

_NOT_BOTH = N_("Give either a first deadline (weekly) or a list of deadlines, not both.")
_NAIVE_FIRST = N_("The first deadline is a local wall-clock time; give it without a "
                  "timezone.")
_EVERY = re.compile(r"(\d+)\s*(d|days?|w|weeks?)?", re.IGNORECASE)


class ScheduleError(RuleError):
    """A schedule or schedule input that cannot be used; the message is for the game master.

    ``ScheduleError(N_("... {name} ..."), name=value)``: ``str()`` is English (logs);
    the edge says it in the reader's language (i18n.schedule_words.schedule_error_text),
    writing each ``Moment`` parameter as that reader reads a deadline.
    """


@dataclass(frozen=True)
class Moment:
    """A deadline named in an error: the aware instant and the zone it is read in."""

    at: datetime
    timezone: str

    def __str__(self) -> str:
        local = to_local(self.at, self.timezone)
        return f"{local:%Y-%m-%d %H:%M} {local.tzname() or self.timezone}"


@dataclass(frozen=True)
class Schedule:
    """Deadlines of a game: weekly form (``first``) or explicit form (``deadlines``)."""

    timezone: str
    first: datetime | None = None
    every_days: int = 7
    deadlines: tuple[datetime, ...] = ()

    def __post_init__(self) -> None:
        _zone(self.timezone)
        every = self.every_days
        if isinstance(every, bool) or not isinstance(every, int) or not 0 < every <= MAX_EVERY_DAYS:
            raise ScheduleError(
                N_("The interval must be a whole number of days from 1 to {most}, not "
                   "{every}."), most=MAX_EVERY_DAYS, every=repr(every))
        if self.first is not None and self.deadlines:
            raise ScheduleError(_NOT_BOTH)
        if self.first is None and not self.deadlines:
            raise ScheduleError(N_("Give a first deadline such as '{example}' or a list."),
                                example=EXAMPLE_LOCAL)
        if self.first is not None and getattr(self.first, "tzinfo", True) is not None:
            raise ScheduleError(_NAIVE_FIRST)
        # Normalise so equal schedules compare equal and to_json is stable.
        utc = tuple(_as_utc(d, number) for number, d in enumerate(self.deadlines, 1))
        object.__setattr__(self, "deadlines", utc)
        for number, (before, after) in enumerate(zip(utc, utc[1:], strict=False), 2):
            if after <= before:
                raise ScheduleError(
                    N_("Deadline {number} ({after}) is not after deadline {previous} "
                       "({before})."), number=number, previous=number - 1,
                    after=Moment(after, self.timezone), before=Moment(before, self.timezone)
                )

    def deadline(self, round_number: int, not_before: datetime | None = None) -> datetime:
        """Return round ``round_number``'s deadline (from 1) as an aware UTC datetime.

        If ``not_before`` is given and that deadline is not after it, return the first
        slot strictly after ``not_before`` instead: in the weekly form the next one of
        the series; in the explicit form the next listed deadline, or when none is
        left ``not_before`` plus ``every_days`` days, rounded up to the whole minute.
        """
        if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
            raise ScheduleError("Rounds are numbered from 1, not {number}.",
                                number=repr(round_number))
        if not_before is not None and not_before.tzinfo is None:
            raise ScheduleError("not_before must be a timezone-aware datetime.")
        scheduled = self._slot(round_number)
        if not_before is None or scheduled > not_before:
            return scheduled
        if self.first is None:
            later = [d for d in self.deadlines if d > not_before]
            return later[0] if later else _ceil_minute(not_before + timedelta(days=self.every_days))
        # Estimate the slot from local dates, then step; DST shifts are far below a day.
        elapsed = to_local(not_before, self.timezone).replace(tzinfo=None) - self.first
        number = max(round_number, elapsed // timedelta(days=self.every_days))
        while (slot := self._slot(number)) <= not_before:
            number += 1
        return slot

    def following(self, round_number: int, closed_at: datetime, due: datetime,
                  after_early: str = "calendar") -> datetime:
        """Round ``round_number``'s deadline, given that the round before it was due at
        ``due`` and closed at ``closed_at`` (both aware).

        ``calendar``: the schedule's own deadline, or its first slot after the close
        (``deadline`` with ``not_before``). ``fresh``: the schedule's interval between
        the two rounds, in local wall-clock time, counted from the close when the round
        closed early and from ``due`` otherwise, rounded up to the whole minute; so
        once a round has closed early (or its deadline moved) the later deadlines move
        along with it. Either way the deadline is after the close.
        """
        if after_early not in AFTER_EARLY:
            raise ScheduleError(N_("After an early close the next deadline either keeps the "
                                   "calendar or is fresh, not {choice}."),
                                choice=repr(after_early))
        if after_early == "calendar" or isinstance(round_number, bool) \
                or not isinstance(round_number, int) or round_number < 2:
            return self.deadline(round_number, not_before=closed_at)
        if closed_at.tzinfo is None or due.tzinfo is None:
            raise ScheduleError("closed_at and due must be timezone-aware datetimes.")
        zone = self.timezone
        interval = _wall(self._slot(round_number), zone) - _wall(self._slot(round_number - 1),
                                                                  zone)
        start = min(closed_at, due)
        deadline = _ceil_minute(_localize(_wall(start, zone) + interval, zone))
        if deadline <= closed_at:  # closed long after its deadline: a whole interval from now
            deadline = _ceil_minute(_localize(_wall(closed_at, zone) + interval, zone))
        return deadline

    def _slot(self, round_number: int) -> datetime:
        """Round ``round_number``'s deadline by the schedule alone."""
        if round_number <= len(self.deadlines):
            return self.deadlines[round_number - 1]
        if self.first is not None:
            start, skip = self.first, round_number - 1
        else:
            start = to_local(self.deadlines[-1], self.timezone).replace(tzinfo=None)
            skip = round_number - len(self.deadlines)
        return _localize(start + timedelta(days=self.every_days * skip), self.timezone)

    def to_json(self) -> dict:
        """Return a JSON-able dict with a fixed set of keys; ``from_json`` reads it back."""
        return {
            "kind": "weekly" if self.first is not None else "explicit",
            "timezone": self.timezone,
            "first": self.first.isoformat() if self.first is not None else None,
            "every_days": self.every_days,
            "deadlines": [d.isoformat() for d in self.deadlines],
        }

    @classmethod
    def from_json(cls, data: dict) -> Schedule:
        """Build a schedule from ``to_json`` output."""
        try:
            first = data.get("first")
            timezone, every_days = data["timezone"], data.get("every_days", 7)
            first = datetime.fromisoformat(first) if first is not None else None
            deadlines = tuple(datetime.fromisoformat(d) for d in data.get("deadlines", ()))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ScheduleError("The stored schedule is malformed: {error}.",
                                error=repr(error)) from error
        return cls(timezone, first, every_days, deadlines)


def weekly(first_local: str | datetime, timezone: str, every_days: int = 7) -> Schedule:
    """Schedule deadlines every ``every_days`` days from ``first_local`` ("2026-12-06 20:00")."""
    first = first_local if isinstance(first_local, datetime) else _parse_local(first_local)
    return Schedule(timezone=timezone, first=first, every_days=every_days)


def explicit(deadlines: list[str | datetime], timezone: str, every_days: int = 7) -> Schedule:
    """Schedule the listed deadlines; strings and naive datetimes are local times in ``timezone``.

    Rounds after the last listed deadline follow every ``every_days`` days.
    """
    if not deadlines:
        raise ScheduleError(N_("The list of deadlines is empty; give at least one."))
    moments = []
    for number, item in enumerate(deadlines, 1):
        local = item if isinstance(item, datetime) else _parse_local(item, number)
        moments.append(local if local.tzinfo else _localize(local, timezone))
    return Schedule(timezone=timezone, every_days=every_days, deadlines=tuple(moments))


def parse_schedule_spec(
    first: str | None, timezone: str, every: str | None, deadlines: str | None
) -> Schedule:
    """Build a schedule from command-line text.

    ``every`` is days ("7", "7d", "14d") or weeks ("1w", "2 weeks"); ``deadlines`` is a
    comma-separated list of local times. Give ``first`` or ``deadlines``, not both.
    """
    if not timezone or not timezone.strip():
        raise ScheduleError(N_("A timezone is needed, such as {examples}."),
                            examples=EXAMPLE_ZONES)
    if first and deadlines:
        raise ScheduleError(_NOT_BOTH)
    every_days = 7 if every is None or not every.strip() else _parse_every(every)
    if first:
        return weekly(first, timezone.strip(), every_days)
    if deadlines:
        entries = [part.strip() for part in deadlines.split(",") if part.strip()]
        return explicit(entries, timezone.strip(), every_days)
    raise ScheduleError(N_("Give a first deadline such as '{example}' or a list of deadlines."),
                        example=EXAMPLE_LOCAL)


def to_local(moment: datetime, timezone: str) -> datetime:
    """Return the aware ``moment`` as an aware datetime in ``timezone``."""
    if moment.tzinfo is None:
        raise ScheduleError("The moment must be a timezone-aware datetime.")
    return moment.astimezone(_zone(timezone))


@cache
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name the machine knows, sorted; read once a process, since
    ``available_timezones`` walks the whole zone database (about 40 ms a call)."""
    return tuple(sorted(available_timezones()))


def _zone(name: str) -> ZoneInfo:
    """The zone called ``name``, or a ScheduleError that names it and suggests one."""
    if not isinstance(name, str):
        raise ScheduleError(N_("A timezone is a name such as {examples}, not {name}."),
                            examples=EXAMPLE_ZONES, name=repr(name))
    try:
        return ZoneInfo(name)
    except (KeyError, ValueError, OSError):
        close = difflib.get_close_matches(name, zone_names(), n=1)
        if close:
            raise ScheduleError(
                N_("Unknown timezone '{name}'. Did you mean '{close}'? Use an IANA name such "
                   "as {examples}."), name=name, close=close[0], examples=EXAMPLE_ZONES
            ) from None
        raise ScheduleError(N_("Unknown timezone '{name}'. Use an IANA name such as "
                               "{examples}."), name=name, examples=EXAMPLE_ZONES) from None


def _localize(local: datetime, timezone: str) -> datetime:
    """The UTC instant of a naive local time; gaps move forward, overlaps take the first."""
    return local.replace(tzinfo=_zone(timezone), fold=0).astimezone(UTC)


def _wall(moment: datetime, timezone: str) -> datetime:
    """The aware ``moment`` as naive local wall-clock time in ``timezone``."""
    return to_local(moment, timezone).replace(tzinfo=None)


def _as_utc(moment: datetime, number: int) -> datetime:
    if not isinstance(moment, datetime) or moment.tzinfo is None:
        raise ScheduleError("Deadline {number} ({moment}) is not a timezone-aware datetime; "
                            "use explicit() to give local times.", number=number,
                            moment=str(moment))
    return moment.astimezone(UTC)


def _parse_local(text: str, where: int | None = None) -> datetime:
    try:
        return datetime.strptime(str(text).strip().replace("T", " ", 1), LOCAL_FORMAT)
    except ValueError:
        if where is not None:
            raise ScheduleError(
                N_("Deadline {number}: '{text}' is not a date and time; expected YYYY-MM-DD "
                   "HH:MM, e.g. '{example}'."), number=where, text=text, example=EXAMPLE_LOCAL
            ) from None
        raise ScheduleError(
            N_("'{text}' is not a date and time; expected YYYY-MM-DD HH:MM, e.g. "
               "'{example}'."), text=text, example=EXAMPLE_LOCAL) from None


def _parse_every(text: str) -> int:
    match = _EVERY.fullmatch(text.strip())
    if match is None:
        raise ScheduleError(
            N_("'{text}' is not an interval; write days like '7d' or '7', or weeks like "
               "'1w'."), text=text)
    unit = (match.group(2) or "d").lower()
    return int(match.group(1)) * (7 if unit.startswith("w") else 1)


def _ceil_minute(moment: datetime) -> datetime:
    whole = moment.replace(second=0, microsecond=0)
    return whole if whole == moment else whole + timedelta(minutes=1)

