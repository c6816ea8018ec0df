"""The deadline after a round closed early: keep the calendar, or a fresh interval."""

from datetime import UTC, datetime, timedelta

import pytest

from vpsleuth.rules.schedule import ScheduleError, explicit, to_local, weekly

BERLIN = "Europe/Berlin"
# Weekly on Sundays at 20:00 in Berlin (19:00 UTC in winter); round 1 is due 6 Dec 2026.
SUNDAYS = weekly("2026-12-06 20:00", BERLIN)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_the_calendar_keeps_the_schedules_next_deadline_after_an_early_close():
    closed = utc(2026, 12, 2, 13, 37)  # Wednesday, everyone had sent a turn
    assert SUNDAYS.following(2, closed, SUNDAYS.deadline(1)) == SUNDAYS.deadline(2)
    assert SUNDAYS.following(2, closed, SUNDAYS.deadline(1), "calendar") == utc(2026, 12, 13, 19)


def test_a_fresh_period_starts_at_the_early_close_rounded_up_to_the_minute():
    closed = utc(2026, 12, 2, 13, 37, 20)
    assert SUNDAYS.following(2, closed, SUNDAYS.deadline(1), "fresh") == utc(2026, 12, 9, 13, 38)


def test_after_a_fresh_period_the_next_deadlines_follow_the_moved_one():
    round_2_due = utc(2026, 12, 9, 13, 38)  # fresh after the early close above
    closed_on_time = utc(2026, 12, 9, 13, 38, 40)  # the scheduler's tick, a little after
    assert SUNDAYS.following(3, closed_on_time, round_2_due, "fresh") == utc(2026, 12, 16, 13, 38)
    # The calendar would go back to Sunday.
    assert SUNDAYS.following(3, closed_on_time, round_2_due) == utc(2026, 12, 20, 19)


def test_a_round_closed_on_time_on_the_calendar_gets_the_same_deadline_either_way():
    due = SUNDAYS.deadline(1)
    for mode in ("calendar", "fresh"):
        assert SUNDAYS.following(2, due, due, mode) == SUNDAYS.deadline(2)


def test_a_fresh_period_keeps_the_local_time_across_a_dst_change():
    schedule = weekly("2026-10-25 20:00", BERLIN)  # clocks go back that morning
    closed = utc(2026, 10, 22, 16, 0)  # Thursday 18:00 summer time
    nxt = schedule.following(2, closed, schedule.deadline(1), "fresh")
    assert to_local(nxt, BERLIN).strftime("%a %d %H:%M %Z") == "Thu 29 18:00 CET"


def test_a_fresh_period_in_a_list_of_deadlines_is_the_listed_gap():
    listed = explicit(["2026-12-06 20:00", "2026-12-09 20:00", "2026-12-20 20:00"], BERLIN)
    closed = utc(2026, 12, 8, 19, 0)  # round 2 (due the 9th) closed a day early
    assert listed.following(3, closed, listed.deadline(2), "fresh") == utc(2026, 12, 19, 19)
    assert listed.following(3, closed, listed.deadline(2)) == utc(2026, 12, 20, 19)


def test_a_round_resolved_long_after_its_deadline_gets_a_whole_interval_from_now():
    late = utc(2026, 12, 20, 10, 0)  # round 1 was due on the 6th
    fresh = SUNDAYS.following(2, late, SUNDAYS.deadline(1), "fresh")
    assert fresh == utc(2026, 12, 27, 10, 0)
    assert SUNDAYS.following(2, late, SUNDAYS.deadline(1)) == utc(2026, 12, 20, 19)


def test_the_next_deadline_is_always_after_the_close():
    for hours in range(0, 24 * 14, 5):
        closed = utc(2026, 11, 30) + timedelta(hours=hours)
        for mode in ("calendar", "fresh"):
            assert SUNDAYS.following(2, closed, SUNDAYS.deadline(1), mode) > closed


def test_an_unknown_choice_is_refused():
    with pytest.raises(ScheduleError, match="keeps the calendar or is fresh"):
        SUNDAYS.following(2, utc(2026, 12, 2), SUNDAYS.deadline(1), "soon")
