"""Machine-written mail is recognised so that it is never answered (no database)."""

from __future__ import annotations

import pytest

from vpsleuth.mail import mime
from vpsleuth.mail.inbound.classify import why_ignored

PLAIN = "From: Ada <ada@example.org>\nTo: v+1.x@example.org\nSubject: Re: round 1\n"


def reason(extra_headers: str, subject: str | None = None, body: str = "TIP A RD1\n") -> str | None:
    head = PLAIN if subject is None else PLAIN.replace("Re: round 1", subject)
    return why_ignored(mime.parse(f"{head}{extra_headers}\n{body}".encode()))


def test_a_normal_reply_is_not_ignored():
    assert reason("Auto-Submitted: no\nPrecedence: normal\n") is None


@pytest.mark.parametrize("header", [
    "Auto-Submitted: auto-replied", "Auto-Submitted: auto-generated",
    "Auto-Submitted: auto-notified; owner-email=x@example.org",
    "X-Autoreply: yes", "X-Autorespond: on", "Precedence: bulk", "Precedence: junk",
    "Precedence: auto_reply",
])
def test_auto_reply_headers_are_ignored(header):
    assert reason(header + "\n").startswith("auto-reply")


@pytest.mark.parametrize("subject", [
    "Out of office", "Out of Office: Corpus: round 1 is open", "Automatic reply: round 1",
    "Abwesenheitsnotiz: Corpus: Runde 1 läuft", "AW: Automatische Antwort: Runde 1",
    "Auto-Reply: away", "Autoreply", "Vacation reply",
])
def test_vacation_subjects_are_ignored(subject):
    assert reason("", subject=subject).startswith("auto-reply")


def test_a_subject_that_merely_mentions_an_office_is_not_ignored():
    assert reason("", subject="Re: round 1 (back in the office now)") is None


@pytest.mark.parametrize("header", [
    "Return-Path: <>", "Return-Path: <MAILER-DAEMON@mx.example.org>",
    "Sender: x\nReturn-Path: <postmaster@example.org>",
])
def test_bounces_by_return_path_are_ignored(header):
    assert reason(header + "\n").startswith("bounce")


def test_a_bounce_from_the_mailer_daemon_is_ignored():
    raw = b"From: MAILER-DAEMON@mx.example.org\nTo: v@example.org\nSubject: failure\n\nx"
    assert why_ignored(mime.parse(raw)).startswith("bounce")


def test_multipart_report_is_a_bounce():
    raw = (b"From: mx@example.org\nTo: v@example.org\nSubject: Undeliverable\nMIME-Version: 1.0\n"
           b"Content-Type: multipart/report; report-type=delivery-status; boundary=B\n\n"
           b"--B\nContent-Type: text/plain\n\nfailed\n--B--\n")
    assert why_ignored(mime.parse(raw)) == "bounce (multipart/report)"


def test_a_delivery_status_part_inside_mixed_is_a_bounce():
    raw = (b"From: mx@example.org\nTo: v@example.org\nSubject: Undeliverable\nMIME-Version: 1.0\n"
           b"Content-Type: multipart/mixed; boundary=B\n\n--B\nContent-Type: text/plain\n\n"
           b"failed\n--B\nContent-Type: message/delivery-status\n\nAction: failed\n\n--B--\n")
    assert why_ignored(mime.parse(raw)) == "bounce (message/delivery-status)"


@pytest.mark.parametrize("header", ["List-Id: <fans.lists.example.org>",
                                    "List-Unsubscribe: <mailto:leave@example.org>",
                                    "Precedence: list"])
def test_mailing_list_traffic_is_ignored(header):
    assert reason(header + "\n").startswith("mailing list")


def test_our_own_outgoing_mail_coming_back_is_ignored():
    assert reason("Auto-Submitted: auto-generated\nReply-To: v+1.x@example.org\n") \
        == "auto-reply (Auto-Submitted: auto-generated)"
