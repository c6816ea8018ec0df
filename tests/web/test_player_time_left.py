"""How much time is left before a deadline, as the pages say it without JavaScript."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from vpsleuth.i18n.dates import time_left

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_days_and_hours_are_shown_while_the_deadline_is_far():
    assert time_left(NOW + timedelta(days=2, hours=3, minutes=59), NOW) == "2 days 3 hours left"
    assert time_left(NOW + timedelta(days=1, minutes=5), NOW) == "1 day left"


def test_hours_and_minutes_are_shown_in_the_last_six_hours():
    assert time_left(NOW + timedelta(hours=5, minutes=1), NOW) == "5 hours 1 minute left"
    assert time_left(NOW + timedelta(seconds=20), NOW) == "1 minute left"


def test_a_passed_deadline_says_so_in_english_and_german():
    assert time_left(NOW, NOW) == "the deadline has passed"
    assert time_left(NOW - timedelta(days=1), NOW, "de") == "der Abgabetermin ist vorbei"
    assert time_left(NOW + timedelta(days=3, hours=1), NOW, "de") == "noch 3 Tage 1 Stunde"
