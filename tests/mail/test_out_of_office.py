"""Out-of-office notices and bounces that carry no machine header: ignored, never answered."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from vpsleuth.mail import keys, mime
from vpsleuth.mail.inbound import classify, ingest

from .support import outbox

SUBJECTS = [
    "Auto: Corpus: round 1 is open", "Automatic reply: Corpus: round 1 is open",
    "Abwesenheitsnotiz: Corpus: Runde 1 läuft", "Out of Office: Corpus: round 1 is open",
    "Réponse automatique : Corpus: round 1 is open",
    "Respuesta automática: Corpus: round 1 is open", "Automatische Antwort: AW: Corpus",
    "Risposta automatica: Corpus", "Automatisch antwoord: Corpus", "Автоответ: Corpus",
    "[Out of Office] Corpus", "AW: Abwesend: Corpus", "Autosvar: Corpus",
]


def notice(subject: str, to: str, body: str = "I am away until Monday.") -> bytes:
    msg = EmailMessage()
    msg["From"] = "Ada Lovelace <ada@example.org>"
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(body)
    return bytes(msg)


@pytest.mark.parametrize("subject", SUBJECTS)
def test_an_out_of_office_subject_alone_marks_an_auto_reply(subject):
    assert classify.why_ignored(mime.parse(notice(subject, "v@localhost"))).startswith(
        "auto-reply (subject")


@pytest.mark.parametrize("subject", [
    "Re: Corpus: round 1 is open until Sun 6 Dec 2026, 20:00 CET", "my turn", "AW: Corpus",
    "Re: Automobile club: round 1", "Absentee ballot", "Autumn league: round 1",
])
def test_a_players_subject_is_not_taken_for_an_auto_reply(subject):
    assert classify.why_ignored(mime.parse(notice(subject, "v@localhost"))) is None


@pytest.mark.parametrize("subject", [
    "Undeliverable: Corpus: round 1 is open", "Unzustellbar: Corpus", "failure notice",
    "Mail delivery failed: returning message to sender",
    "Delivery Status Notification (Failure)", "Undelivered Mail Returned to Sender",
])
def test_a_delivery_report_is_known_by_its_subject_too(subject):
    assert classify.bounce_reason(mime.parse(notice(subject, "v@localhost"))).startswith(
        "bounce (subject")


def test_a_keyed_out_of_office_notice_is_stored_ignored_and_not_answered(game, ada):
    row = ingest(notice("Auto: Corpus: round 1 is open", keys.reply_address(ada),
                        "I am out of the office.\nTIP A RD1"), "pipe")
    assert (row.status, row.turn_version_id) == ("ignored", None)
    assert "auto-reply" in row.error
    assert outbox() == []
