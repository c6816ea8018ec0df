"""Limits: duplicates, oversized mail, mails per sender, refusals per unknown sender."""

from __future__ import annotations

import base64
from datetime import timedelta

from vpsleuth.extensions import db
from vpsleuth.mail.inbound import ingest
from vpsleuth.models import InboundMessage, TurnVersion, utcnow
from vpsleuth.services import turns

from .support import corpus, inbound, outbox, outbox_mark


def with_message_id(raw: bytes, n: int) -> bytes:
    return raw.replace(b"Message-ID: <", f"Message-ID: <n{n}.".encode(), 1)


def test_a_duplicate_message_id_is_stored_but_not_applied_or_answered_again(game, ada):
    raw = corpus("gmail_reply.eml", ada)
    first = ingest(raw, "imap")
    second = ingest(raw, "pipe")
    assert (first.status, second.status) == ("applied", "duplicate")
    assert str(first.id) in second.error
    assert [m.kind for m in outbox()] == ["confirmation"]
    assert db.session.query(TurnVersion).count() == 1
    assert second.raw == raw


def test_a_message_whose_first_copy_failed_is_processed_when_it_comes_again(game, ada):
    raw = corpus("gmail_reply.eml", ada)
    failed = ingest(raw, "imap")
    failed.status = "failed"
    db.session.commit()
    assert ingest(raw, "imap").status == "applied"


def oversized(raw: bytes, size: int) -> bytes:
    """The message with a base64 attachment that makes it ``size`` bytes or more."""
    head, _, body = raw.partition(b"\n\n")
    head = head.replace(b"Content-Type: text/plain; charset=us-ascii",
                        b"Content-Type: multipart/mixed; boundary=ZZ")
    blob = base64.encodebytes(b"\x89PNG" * (size // 4))
    return (head + b"\n\n--ZZ\nContent-Type: text/plain\n\n" + body
            + b"\n--ZZ\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\n"
            + blob + b"\n--ZZ--\n")


def test_an_oversized_mail_keeps_its_first_bytes_and_the_player_is_told(app, game, ada):
    limit = app.config["INBOUND_MAX_BYTES"]
    assert limit == 256 * 1024
    raw = oversized(corpus("signature_dash.eml", ada), limit + 50_000)
    before = turns.standing_turn(game.open_round, ada)
    row = ingest(raw, "smtp")
    assert row.status == "refused"
    assert row.raw == raw[:limit]
    assert row.error.startswith(f"too large: {len(raw)} bytes")
    assert row.player_id == ada.id
    [reply] = outbox()
    assert (reply.kind, reply.to_addr) == ("refused", "ada@example.org")
    assert "too large" in reply.body_text
    assert turns.standing_turn(game.open_round, ada) == before


def test_an_oversized_mail_without_a_key_is_not_answered(app, game):
    raw = oversized(corpus("missing_key.eml").replace(b"charset=utf-8", b"charset=us-ascii"),
                    app.config["INBOUND_MAX_BYTES"] * 2)
    row = ingest(raw, "pipe")
    assert row.status == "refused" and "too large" in row.error
    assert outbox() == []


def test_an_oversized_bounce_is_ignored_not_answered(app, game, ben):
    raw = corpus("bounce.eml", ben) + b"x" * app.config["INBOUND_MAX_BYTES"]
    row = ingest(raw, "pipe")
    assert row.status == "ignored" and row.error.startswith("too large")
    assert outbox() == []


def add_earlier(sender: str, count: int, minutes_ago: int) -> None:
    for _ in range(count):
        db.session.add(InboundMessage(source="imap", raw=b"x", from_addr=sender,
                                      status="applied",
                                      received_at=utcnow() - timedelta(minutes=minutes_ago)))
    db.session.commit()


def test_mail_over_the_hourly_limit_per_sender_is_stored_and_ignored(app, game, ada):
    assert app.config["INBOUND_PER_SENDER_PER_HOUR"] == 20
    add_earlier("ada@example.org", 20, minutes_ago=30)
    row = ingest(corpus("gmail_reply.eml", ada), "pipe")
    assert row.status == "ignored" and row.error.startswith("rate limit")
    assert outbox() == []
    assert turns.standing_turn(game.open_round, ada).is_empty


def test_mail_older_than_an_hour_does_not_count_against_the_limit(game, ada):
    add_earlier("ada@example.org", 19, minutes_ago=30)
    add_earlier("ada@example.org", 50, minutes_ago=61)
    assert ingest(corpus("gmail_reply.eml", ada), "pipe").status == "applied"


def test_an_unknown_sender_gets_at_most_three_refusals_an_hour(app, game):
    assert app.config["INBOUND_REFUSALS_PER_HOUR"] == 3
    raw = corpus("missing_key.eml")
    rows = [ingest(with_message_id(raw, n), "pipe") for n in range(5)]
    assert [r.status for r in rows] == ["refused"] * 5
    assert len(outbox("not_understood")) == 3
    assert "not answered" in rows[4].error
    other = raw.replace(b"stranger@example.com", b"other@example.com")
    ingest(other, "pipe")
    assert [m.to_addr for m in outbox("not_understood")][-1] == "other@example.com"


def test_a_refusal_goes_out_in_german_to_a_german_reply_without_a_key(game):
    raw = corpus("missing_key.eml").replace(b"Subject: How do I join?",
                                            b"Subject: AW: Corpus: Runde 1")
    ingest(raw, "pipe")
    [reply] = outbox("not_understood")
    assert "keinen Spielerschl" in reply.body_text


def test_a_message_without_any_sender_is_refused_without_an_answer(game):
    row = ingest(corpus("no_headers.eml"), "pipe")
    assert row.status == "refused" and "no sender address" in row.error
    assert outbox() == []


def test_stored_messages_keep_every_byte_even_with_nul_and_invalid_utf8(game):
    raw = corpus("garbage.eml")
    mark = outbox_mark()
    row = ingest(raw, "pipe")
    assert row.raw == raw
    assert [r.raw for r in inbound()] == [raw]
    assert outbox(after=mark) == []
