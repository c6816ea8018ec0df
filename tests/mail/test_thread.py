"""Which round a reply is for, read from the subject of the mail it answers (no database)."""

from __future__ import annotations

import pytest

from vpsleuth.mail.inbound.thread import round_in_subject


@pytest.mark.parametrize("subject, number", [
    ("Re: Corpus: round 3 is open until Sun 6 Dec 2026, 20:00 CET", 3),
    ("AW: Corpus: Runde 11 läuft bis So. 6. Dez. 2026, 20:00 MEZ", 11),
    ("Re: Corpus: your turn for round 2 is stored", 2),
    ("AW: Corpus: dein Zug für Runde 4 ist gespeichert", 4),
    ("Re: Corpus: 4 hours left for round 5", 5),
    ("AW: Corpus: noch 24 Stunden für Runde 6", 6),
    ("Re: Corpus: the deadline of round 7 has moved", 7),
    ("AW: Corpus: der Abgabetermin von Runde 8 ist verschoben", 8),
])
def test_mails_that_ask_for_a_turn_name_their_round(subject, number):
    assert round_in_subject(subject) == number


@pytest.mark.parametrize("subject", [
    "Re: Corpus: report of round 3", "AW: Corpus: Bericht zu Runde 3", "Re: Corpus: final report",
    "my turn", "", "Re: Corpus: your turn was not applied",
])
def test_reports_and_other_subjects_name_no_round(subject):
    assert round_in_subject(subject) is None
