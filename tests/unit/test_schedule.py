"""Deadline schedules: weekly rhythm across DST, explicit lists, catch-up, text in and out.

The schedule is pure (vpsleuth/rules/schedule.py); what it says in words, its
errors and the deadlines they name, comes from vpsleuth/i18n (dates.py,
schedule_words.py), with Babel's names of days and months.
"""

import json
import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from vpsleuth.i18n.dates import deadline_text
from vpsleuth.i18n.schedule_words import schedule_error_text, schedule_text
from vpsleuth.models import utcnow
from vpsleuth.rules.schedule import (
    Schedule,
    ScheduleError,
    explicit,
    parse_schedule_spec,
    to_local,
    weekly,
)

BERLIN = "Europe/Berlin"
NEW_YORK = "America/New_York"


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("zone", "first", "before", "after"),
    [
        (BERLIN, "2026-03-22 20:00", utc(2026, 3, 22, 19), utc(2026, 3, 29, 18)),
        (BERLIN, "2026-10-18 20:00", utc(2026, 10, 18, 18), utc(2026, 10, 25, 19)),
        (NEW_YORK, "2026-03-01 20:00", utc(2026, 3, 2, 1), utc(2026, 3, 9, 0)),
        (NEW_YORK, "2026-10-25 20:00", utc(2026, 10, 26, 0), utc(2026, 11, 2, 1)),
    ],
    ids=["berlin-spring", "berlin-autumn", "new-york-spring", "new-york-autumn"],
)
def test_weekly_deadline_stays_at_local_20_00_across_a_dst_change(zone, first, before, after):
    schedule = weekly(first, zone)
    assert schedule.deadline(1) == before
    assert schedule.deadline(2) == after
    assert {to_local(schedule.deadline(n), zone).strftime("%a %H:%M") for n in (1, 2)} == {
        "Sun 20:00"
    }


def test_deadlines_are_aware_utc_datetimes():
    moment = weekly("2026-12-06 20:00", BERLIN).deadline(3)
    assert moment.tzinfo is UTC
    assert moment == utc(2026, 12, 20, 19)


def test_every_n_days_keeps_the_interval():
    schedule = weekly(datetime(2026, 12, 6, 20), BERLIN, every_days=3)
    assert schedule.deadline(4) == utc(2026, 12, 15, 19)


def test_time_in_the_spring_forward_gap_moves_forward_by_the_gap():
    berlin = weekly("2026-03-29 02:30", BERLIN).deadline(1)
    new_york = weekly("2026-03-08T02:30", NEW_YORK).deadline(1)
    assert berlin == utc(2026, 3, 29, 1, 30)
    assert to_local(berlin, BERLIN).strftime("%H:%M %Z") == "03:30 CEST"
    assert new_york == utc(2026, 3, 8, 7, 30)
    assert to_local(new_york, NEW_YORK).strftime("%H:%M %Z") == "03:30 EDT"


def test_only_the_week_of_the_gap_is_moved():
    schedule = weekly("2026-03-22 02:30", BERLIN)
    local = [to_local(schedule.deadline(n), BERLIN).strftime("%H:%M") for n in (1, 2, 3)]
    assert local == ["02:30", "03:30", "02:30"]


def test_ambiguous_fall_back_time_means_the_first_occurrence():
    berlin = weekly("2026-10-25 02:30", BERLIN).deadline(1)
    new_york = weekly("2026-11-01 01:30", NEW_YORK).deadline(1)
    assert berlin == utc(2026, 10, 25, 0, 30)
    assert to_local(berlin, BERLIN).tzname() == "CEST"
    assert new_york == utc(2026, 11, 1, 5, 30)
    assert to_local(new_york, NEW_YORK).tzname() == "EDT"


def test_explicit_list_reads_strings_and_naive_datetimes_as_local_and_keeps_aware_ones():
    tokyo_noon = datetime(2026, 12, 20, 12, tzinfo=ZoneInfo("Asia/Tokyo"))
    schedule = explicit(["2026-12-06 20:00", datetime(2026, 12, 13, 20), tokyo_noon], BERLIN)
    assert schedule.deadlines == (utc(2026, 12, 6, 19), utc(2026, 12, 13, 19), utc(2026, 12, 20, 3))
    assert [schedule.deadline(n) for n in (1, 2, 3)] == list(schedule.deadlines)


def test_explicit_list_crosses_dst_at_the_given_local_times():
    schedule = explicit(["2026-03-22 20:00", "2026-03-29 20:00"], BERLIN)
    assert schedule.deadlines == (utc(2026, 3, 22, 19), utc(2026, 3, 29, 18))


@pytest.mark.parametrize(
    ("third", "shown"),
    [("2026-12-13 19:00", "Sun 13 Dec 2026, 19:00 CET"), ("2026-12-13 20:00", "Sun 13 Dec")],
    ids=["earlier", "equal"],
)
def test_explicit_list_that_does_not_increase_names_the_offending_entry(third, shown):
    expected = rf"Deadline 3 \({shown}.*is not after deadline 2 \(Sun 13 Dec 2026, 20:00 CET\)"
    with pytest.raises(ScheduleError, match=r"Deadline 3 \(2026-12-13 .*\) is not after deadline "
                                            r"2 \(2026-12-13 20:00 CET\)") as caught:
        explicit(["2026-12-06 20:00", "2026-12-13 20:00", third], BERLIN)
    assert re.search(expected, schedule_error_text(caught.value))


def test_explicit_list_with_a_bad_entry_names_its_position_and_the_format():
    with pytest.raises(ScheduleError, match=r"Deadline 2: '13\.12\.2026 20:00'.*YYYY-MM-DD HH:MM"):
        explicit(["2026-12-06 20:00", "13.12.2026 20:00"], BERLIN)


def test_empty_explicit_list_is_refused():
    with pytest.raises(ScheduleError, match="empty"):
        explicit([], BERLIN)


def test_rounds_after_a_short_list_continue_weekly_at_the_last_local_time():
    schedule = explicit(["2026-03-10 18:00", "2026-03-22 20:00"], BERLIN)
    assert schedule.deadline(3) == utc(2026, 3, 29, 18)
    assert schedule.deadline(4) == utc(2026, 4, 5, 18)
    assert to_local(schedule.deadline(4), BERLIN).strftime("%a %H:%M") == "Sun 20:00"


def test_continuation_after_a_list_uses_the_given_interval():
    schedule = explicit(["2026-12-06 20:00"], BERLIN, every_days=14)
    assert schedule.deadline(2) == utc(2026, 12, 20, 19)


def test_not_before_leaves_a_future_deadline_alone():
    schedule = weekly("2026-12-06 20:00", BERLIN)
    assert schedule.deadline(2, not_before=utc(2026, 12, 10)) == utc(2026, 12, 13, 19)


def test_weekly_catch_up_takes_the_next_slot_in_the_rhythm_across_dst():
    schedule = weekly("2026-03-01 20:00", BERLIN)
    late = schedule.deadline(2, not_before=utc(2026, 4, 1, 9))
    assert late == utc(2026, 4, 5, 18)
    assert to_local(late, BERLIN).strftime("%a %H:%M") == "Sun 20:00"


def test_weekly_catch_up_is_strictly_after_not_before():
    schedule = weekly("2026-12-06 20:00", BERLIN)
    assert schedule.deadline(1, not_before=utc(2026, 12, 13, 19)) == utc(2026, 12, 20, 19)


def test_weekly_catch_up_never_returns_an_earlier_round_than_asked():
    schedule = weekly("2026-12-06 20:00", BERLIN)
    assert schedule.deadline(5, not_before=utc(2026, 12, 6, 19)) == schedule.deadline(5)


def test_explicit_catch_up_takes_the_first_listed_deadline_after_not_before():
    schedule = explicit(["2026-12-06 20:00", "2026-12-09 20:00", "2026-12-20 20:00"], BERLIN)
    assert schedule.deadline(1, not_before=utc(2026, 12, 10)) == utc(2026, 12, 20, 19)
    assert schedule.deadline(1, not_before=utc(2026, 12, 9, 19)) == utc(2026, 12, 20, 19)


def test_explicit_catch_up_past_the_list_is_a_week_later_rounded_up_to_the_minute():
    schedule = explicit(["2026-12-06 20:00"], BERLIN)
    ragged = utc(2026, 12, 8, 10, 15, 1)
    assert schedule.deadline(1, not_before=ragged) == utc(2026, 12, 15, 10, 16)
    assert schedule.deadline(3, not_before=utc(2027, 1, 30, 7)) == utc(2027, 2, 6, 7)


def test_catch_up_needs_an_aware_not_before():
    with pytest.raises(ScheduleError, match="timezone-aware"):
        weekly("2026-12-06 20:00", BERLIN).deadline(1, not_before=datetime(2026, 12, 7))


@pytest.mark.parametrize("number", [0, -1, True])
def test_rounds_are_numbered_from_one(number):
    with pytest.raises(ScheduleError, match="numbered from 1"):
        weekly("2026-12-06 20:00", BERLIN).deadline(number)


@pytest.mark.parametrize(
    "schedule",
    [
        weekly("2026-03-29 02:30", BERLIN, every_days=14),
        explicit(["2026-12-06 20:00", "2026-12-13 21:15"], NEW_YORK),
    ],
    ids=["weekly", "explicit"],
)
def test_json_round_trips_through_text(schedule):
    data = json.loads(json.dumps(schedule.to_json()))
    again = Schedule.from_json(data)
    assert again == schedule
    assert again.to_json() == schedule.to_json()
    assert [again.deadline(n) for n in (1, 2, 3)] == [schedule.deadline(n) for n in (1, 2, 3)]


def test_json_has_a_fixed_readable_shape():
    assert weekly("2026-12-06 20:00", BERLIN).to_json() == {
        "kind": "weekly",
        "timezone": BERLIN,
        "first": "2026-12-06T20:00:00",
        "every_days": 7,
        "deadlines": [],
    }


def test_malformed_stored_schedule_gives_a_schedule_error():
    with pytest.raises(ScheduleError, match="malformed"):
        Schedule.from_json({"first": "2026-12-06T20:00:00"})
    with pytest.raises(ScheduleError, match="malformed"):
        Schedule.from_json({"timezone": BERLIN, "first": "next sunday"})


@pytest.mark.parametrize(
    ("every", "days"),
    [("7d", 7), ("1w", 7), ("14d", 14), ("7", 7), ("2 weeks", 14), (" 3 days ", 3), (None, 7)],
)
def test_spec_reads_intervals_in_days_or_weeks(every, days):
    schedule = parse_schedule_spec("2026-12-06 20:00", BERLIN, every, None)
    assert schedule.every_days == days
    assert schedule.deadline(2) - schedule.deadline(1) == timedelta(days=days)


def test_spec_reads_a_comma_separated_list_of_local_deadlines():
    schedule = parse_schedule_spec(None, NEW_YORK, None, "2026-12-06 20:00, 2026-12-10T20:00,")
    assert schedule.deadlines == (utc(2026, 12, 7, 1), utc(2026, 12, 11, 1))


@pytest.mark.parametrize(
    ("first", "zone", "every", "deadlines", "message"),
    [
        ("2026-12-06 20:00", BERLIN, "7x", None, r"'7x' is not an interval.*'7d'"),
        ("2026-12-06 20:00", BERLIN, "0d", None, "from 1 to 28, not 0"),
        ("2026-12-06 20:00", BERLIN, "5w", None, "from 1 to 28, not 35"),
        ("6/12/2026 8pm", BERLIN, None, None, r"'6/12/2026 8pm'.*YYYY-MM-DD HH:MM"),
        ("2026-12-06 20:00", "", None, None, "timezone is needed.*Europe/Berlin"),
        ("2026-12-06 20:00", BERLIN, None, "2026-12-13 20:00", "not both"),
        (None, BERLIN, None, None, "first deadline such as '2026-12-06 20:00'"),
        (None, BERLIN, None, " , ", "list of deadlines is empty"),
        (None, BERLIN, None, "2026-12-06 20:00,2026-12-31 25:00", "Deadline 2: '2026-12-31 25:00'"),
    ],
)
def test_spec_rejects_bad_input_with_a_clear_message(first, zone, every, deadlines, message):
    with pytest.raises(ScheduleError, match=message):
        parse_schedule_spec(first, zone, every, deadlines)


def test_unknown_timezone_is_named_and_a_real_one_suggested():
    with pytest.raises(ScheduleError, match="'Mars/Olympus'.*'Europe/Berlin'"):
        weekly("2026-12-06 20:00", "Mars/Olympus")
    with pytest.raises(ScheduleError, match=r"'Europe/Berln'\. Did you mean 'Europe/Berlin'\?"):
        explicit(["2026-12-06 20:00"], "Europe/Berln")


@pytest.mark.parametrize("zone", ["Europe", "../etc/passwd", 7])
def test_timezone_names_that_are_not_zones_are_refused(zone):
    with pytest.raises(ScheduleError, match="Europe/Berlin"):
        Schedule(timezone=zone, first=datetime(2026, 12, 6, 20))


def test_schedule_needs_exactly_one_form():
    with pytest.raises(ScheduleError, match="not both"):
        Schedule(BERLIN, first=datetime(2026, 12, 6, 20), deadlines=(utc(2026, 12, 6, 19),))
    with pytest.raises(ScheduleError, match="first deadline such as"):
        Schedule(BERLIN)


def test_first_deadline_must_be_a_wall_clock_time():
    with pytest.raises(ScheduleError, match="local wall-clock time"):
        weekly(utc(2026, 12, 6, 19), BERLIN)
    with pytest.raises(ScheduleError, match="local wall-clock time"):
        Schedule(BERLIN, first="2026-12-06 20:00")


def test_explicit_form_needs_aware_datetimes_when_built_directly():
    with pytest.raises(ScheduleError, match="Deadline 1 .*use explicit"):
        Schedule(BERLIN, deadlines=(datetime(2026, 12, 6, 20),))


def test_directly_built_deadlines_are_normalised_to_utc():
    local = datetime(2026, 12, 6, 20, tzinfo=ZoneInfo(BERLIN))
    schedule = Schedule(BERLIN, deadlines=[local])
    assert schedule.deadlines == (utc(2026, 12, 6, 19),)
    assert schedule.deadlines[0].tzinfo is UTC


@pytest.mark.parametrize("every", [29, 2.5, True])
def test_interval_must_be_whole_days_up_to_four_weeks(every):
    with pytest.raises(ScheduleError, match="whole number of days"):
        weekly("2026-12-06 20:00", BERLIN, every_days=every)


@pytest.mark.parametrize(
    ("moment", "zone", "lang", "text"),
    [
        (utc(2026, 12, 6, 19), BERLIN, "en", "Sun 6 Dec 2026, 20:00 CET"),
        (utc(2026, 12, 6, 19), BERLIN, "de", "So. 6. Dez. 2026, 20:00 MEZ"),
        (utc(2026, 3, 29, 18), BERLIN, "de", "So. 29. März 2026, 20:00 MESZ"),
        (utc(2026, 5, 1, 0, 5), NEW_YORK, "en", "Thu 30 Apr 2026, 20:05 EDT"),
        (utc(2026, 10, 28, 23), NEW_YORK, "de", "Mi. 28. Okt. 2026, 19:00 EDT"),
    ],
)
def test_deadline_text_in_english_and_german(moment, zone, lang, text):
    assert deadline_text(moment, zone, lang) == text


def test_a_language_the_site_does_not_speak_reads_british_english():
    assert deadline_text(utc(2026, 12, 6, 19), BERLIN, "fr") == "Sun 6 Dec 2026, 20:00 CET"


def test_describe_weekly_schedule_in_english_and_german():
    schedule = weekly("2026-12-06 20:00", BERLIN)
    assert schedule_text(schedule) == "every 7 days at 20:00 Europe/Berlin, first 2026-12-06"
    assert schedule_text(schedule, "de") == (
        "alle 7 Tage um 20:00 Europe/Berlin, erstmals 2026-12-06")
    assert schedule_text(weekly("2026-12-06 08:00", BERLIN, 1), "de").startswith(
        "täglich um 08:00")


def test_describe_explicit_schedule_lists_deadlines_and_the_continuation():
    schedule = explicit(["2026-12-06 20:00", "2026-12-09 20:00"], BERLIN)
    assert schedule_text(schedule) == (
        "Sun 6 Dec 2026, 20:00 CET; Wed 9 Dec 2026, 20:00 CET; then every 7 days (Europe/Berlin)"
    )
    assert schedule_text(schedule, "de").endswith(
        "Mi. 9. Dez. 2026, 20:00 MEZ; danach alle 7 Tage (Europe/Berlin)"
    )


def test_to_local_converts_and_refuses_naive_moments():
    assert to_local(utc(2026, 7, 1, 12), BERLIN) == datetime(
        2026, 7, 1, 14, tzinfo=ZoneInfo(BERLIN)
    )
    assert to_local(utc(2026, 7, 1, 12), BERLIN).utcoffset() == timedelta(hours=2)
    with pytest.raises(ScheduleError, match="timezone-aware"):
        to_local(datetime(2026, 7, 1, 12), BERLIN)


def test_utcnow_is_aware_utc_and_current():
    now = utcnow()
    assert now.tzinfo is UTC
    assert abs(now - datetime.now(UTC)) < timedelta(seconds=5)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Unknown timezone 'Europe/Berln'. Did you mean 'Europe/Berlin'?"),
    ("de", "Unbekannte Zeitzone „Europe/Berln“. Meintest du „Europe/Berlin“?"),
    ("es", "Zona horaria desconocida «Europe/Berln». ¿Querías decir «Europe/Berlin»?"),
])
def test_a_schedule_error_is_said_in_the_readers_language(lang, words):
    with pytest.raises(ScheduleError) as caught:
        weekly("2026-12-06 20:00", "Europe/Berln")
    assert schedule_error_text(caught.value, lang).startswith(words)
    assert str(caught.value).startswith("Unknown timezone 'Europe/Berln'.")  # CLI and logs


def test_a_bad_deadline_in_a_list_names_its_number_in_german():
    with pytest.raises(ScheduleError) as caught:
        explicit(["2026-12-06 20:00", "soon"], BERLIN)
    assert schedule_error_text(caught.value, "de").startswith(
        "Abgabetermin 2: „soon“ ist kein Datum")
    assert str(caught.value).startswith("Deadline 2: 'soon' is not a date and time")
