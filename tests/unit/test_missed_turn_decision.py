"""The missed-turn rule and the ABSENT line, pure: no app, no database."""

from __future__ import annotations

from datetime import date

import pytest

from vpsleuth.orders.absence_line import parse_date, split_absence_lines
from vpsleuth.rules.missed import MISSED_TURN_RULES, check_missed_turn_rule, covers, is_repeated

TIPS = {"RD1": "A", "BP2": "C"}


@pytest.mark.parametrize("rule, sent, absent, tips, repeated", [
    ("none", False, False, TIPS, False),
    ("none", False, True, TIPS, False),
    ("repeat", False, False, TIPS, True),
    ("repeat", False, True, TIPS, True),
    ("repeat", True, False, TIPS, False),      # a turn sent, even an empty one
    ("repeat", False, False, {}, False),       # nothing to repeat (round 1, or no tips)
    ("repeat-when-absent", False, True, TIPS, True),
    ("repeat-when-absent", False, False, TIPS, False),
    ("repeat-when-absent", True, True, TIPS, False),
    ("repeat-when-absent", False, True, {}, False),
])
def test_whether_a_seat_is_repeated(rule, sent, absent, tips, repeated):
    assert is_repeated(rule, sent_a_turn=sent, absent_at_deadline=absent,
                       last_tips=tips) is repeated


def test_only_the_three_rules_exist():
    assert MISSED_TURN_RULES == ("none", "repeat", "repeat-when-absent")
    with pytest.raises(ValueError):
        check_missed_turn_rule("always")
    with pytest.raises(ValueError):
        is_repeated("sometimes", sent_a_turn=False, absent_at_deadline=True, last_tips=TIPS)


def test_an_absence_covers_both_its_days():
    first, last = date(2026, 12, 20), date(2027, 1, 3)
    assert covers(first, last, first) and covers(first, last, last)
    assert not covers(first, last, date(2026, 12, 19))
    assert not covers(first, last, date(2027, 1, 4))


@pytest.mark.parametrize("word, day", [
    ("2026-12-20", date(2026, 12, 20)), ("20.12.2026", date(2026, 12, 20)),
    ("20/12/2026", date(2026, 12, 20)), ("3.1.2027", date(2027, 1, 3)),
    ("31.02.2027", None), ("2026-13-01", None), ("12/20", None), ("tomorrow", None),
])
def test_dates_are_iso_or_day_first(word, day):
    assert parse_date(word) == day


def test_absence_lines_in_three_languages_come_out_of_the_turn():
    text = ("ABSENT 2026-12-20 2027-01-03 skiing\nQUESTION A red\nabwesend: 20.12.2026 bis "
            "03.01.2027\nAusente 20/12/2026 - 3/1/2027 boda de mi prima\n")
    lines, rest = split_absence_lines(text)
    assert [(a.line, a.starts, a.ends, a.note) for a in lines] == [
        (1, date(2026, 12, 20), date(2027, 1, 3), "skiing"),
        (3, date(2026, 12, 20), date(2027, 1, 3), ""),
        (4, date(2026, 12, 20), date(2027, 1, 3), "boda de mi prima")]
    assert all(a.ok for a in lines)
    assert rest == "\nQUESTION A red\n\n\n"  # the turn keeps its line numbers


@pytest.mark.parametrize("line, message", [
    ("ABSENT", "no days after {keyword}; write the first and the last day away"),
    ("ABSENT 2026-12-20", "no last day after {day}; write the first and the last day away"),
    ("ABSENT soon 2027-01-03", "'{word}' is not a date; write it as 2026-12-20 or 20.12.2026"),
    ("ABSENT 2026-12-20 31.02.2027", "'{word}' is not a date; write it as 2026-12-20 or "
                                     "20.12.2026"),
])
def test_a_bad_absence_line_says_what_is_wrong(line, message):
    [found], _ = split_absence_lines(line)
    assert not found.ok and found.message_id == message


def test_a_word_that_only_starts_like_the_keyword_is_left_to_the_turn():
    lines, rest = split_absence_lines("ABSENTLY TIP A RD1\nTIP A RD1")
    assert lines == [] and rest == "ABSENTLY TIP A RD1\nTIP A RD1"
