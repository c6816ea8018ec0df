"""Limits: duplicates, oversized mail, mails per player or sender, replies to unknown senders.

The attacks on the limits go through the real SMTP receiver.
"""

from __future__ import annotations

import base64
from datetime import timedelta

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound import ingest
from vpsleuth.models import InboundMessage, Player, TurnVersion, utcnow
from vpsleuth.rules import GEM_BY_CODE, parse_question
from vpsleuth.services import turns

from .support import corpus, inbound, outbox, outbox_mark
from .test_smtpd import deliver


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


def add_earlier(sender: str, count: int, minutes_ago: int, player: Player | None = None) -> None:
    """Earlier mails from ``sender``: keyed ones (``player``'s key) or unkeyed ones."""
    for _ in range(count):
        db.session.add(InboundMessage(source="imap", raw=b"x", from_addr=sender,
                                      status="applied", player_id=player and player.id,
                                      received_at=utcnow() - timedelta(minutes=minutes_ago)))
    db.session.commit()


def test_keyed_mail_over_the_players_hourly_limit_is_stored_ignored_and_told_once(app, game,
                                                                                 ada):
    assert app.config["INBOUND_PER_SENDER_PER_HOUR"] == 20
    add_earlier("ada@example.org", 20, minutes_ago=30, player=ada)
    row = ingest(corpus("gmail_reply.eml", ada), "pipe")
    assert row.status == "ignored" and row.error.startswith("rate limit")
    assert row.player_id == ada.id
    assert "told the player" in row.error
    again = ingest(corpus("signature_dash.eml", ada), "pipe")
    assert again.status == "ignored" and "told within the past hour" in again.error
    [notice] = outbox()
    assert (notice.kind, notice.to_addr, notice.player_id) == ("over_limit", "ada@example.org",
                                                               ada.id)
    assert "more than 20 mails" in notice.body_text
    assert turns.standing_turn(game.open_round, ada).is_empty


def test_mail_older_than_an_hour_does_not_count_against_the_limit(game, ada):
    add_earlier("ada@example.org", 19, minutes_ago=30, player=ada)
    add_earlier("ada@example.org", 50, minutes_ago=61, player=ada)
    assert ingest(corpus("gmail_reply.eml", ada), "pipe").status == "applied"


def test_unkeyed_mail_from_a_players_address_does_not_count_against_her_key(game, ada):
    add_earlier("ada@example.org", 50, minutes_ago=10)
    assert ingest(corpus("gmail_reply.eml", ada), "pipe").status == "applied"


def test_keyed_mail_does_not_count_against_the_unkeyed_limit_of_its_address(game, ada):
    add_earlier("ada@example.org", 50, minutes_ago=10, player=ada)
    fresh = corpus("missing_key.eml").replace(b"stranger@example.com", b"ada@example.org")
    row = ingest(fresh, "pipe")
    assert row.status == "refused" and "answered ada@example.org" in row.error


# The attacks, through the real SMTP receiver.

def forged(n: int, sender: str) -> bytes:
    """Mail number ``n`` without a reply key that claims to come from ``sender``."""
    raw = corpus("missing_key.eml").replace(b"stranger@example.com", sender.encode())
    return with_message_id(raw, n)


def test_forged_mails_from_a_players_address_cannot_stop_her_genuine_reply(app, game, ada,
                                                                          smtp_port):
    limit = app.config["INBOUND_PER_SENDER_PER_HOUR"]
    for n in range(limit + 1):
        deliver(smtp_port, forged(n, "ada@example.org"), "ada@example.org",
                ["vpsleuth@localhost"])
    assert inbound()[-1].status == "ignored", "the forger's own mails are limited"
    deliver(smtp_port, corpus("gmail_reply.eml", ada), "ada@example.org",
            [keys.reply_address(ada)])
    genuine = inbound()[-1]
    assert (genuine.status, genuine.player_id) == ("applied", ada.id)
    standing = turns.standing_turn(game.open_round, ada)
    assert standing.question == parse_question("A red")
    assert standing.tips == {GEM_BY_CODE["BP2"]: "B"}
    assert [m.to_addr for m in outbox("confirmation")] == ["ada@example.org"]
    assert len(outbox("not_understood")) == 1, "the forgeries answered once, not spammed"


def test_a_flood_with_a_players_key_is_stopped_whatever_its_from_addresses(app, game, ada,
                                                                         smtp_port):
    limit = app.config["INBOUND_PER_SENDER_PER_HOUR"]
    senders = ("ada@example.org", "ada@work.example", "loop@forwarder.example")
    for n in range(limit + 2):
        sender = senders[n % len(senders)]
        raw = corpus("signature_dash.eml", ada).replace(b"ada@example.org", sender.encode())
        deliver(smtp_port, with_message_id(raw, n), sender, ["vpsleuth@localhost"])
    rows = inbound()
    assert [r.status for r in rows] == ["applied"] * limit + ["ignored"] * 2
    assert {r.player_id for r in rows} == {ada.id}
    assert [m.kind for m in outbox()] == ["confirmation"] * limit + ["over_limit"]
    assert db.session.query(TurnVersion).filter_by(channel="email").count() == limit


def test_an_unknown_sender_gets_one_reply_a_day(app, game):
    assert app.config["INBOUND_UNKNOWN_REPLIES_PER_ADDRESS_PER_DAY"] == 1
    raw = corpus("missing_key.eml")
    rows = [ingest(with_message_id(raw, n), "pipe") for n in range(3)]
    assert [r.status for r in rows] == ["refused"] * 3
    [reply] = outbox("not_understood")
    assert reply.to_addr == "stranger@example.com"
    assert "not answered: 1 such replies went to stranger@example.com" in rows[2].error
    other = raw.replace(b"stranger@example.com", b"other@example.com")
    ingest(other, "pipe")
    assert [m.to_addr for m in outbox("not_understood")][-1] == "other@example.com"
    reply.created_at = utcnow() - timedelta(hours=25)
    db.session.commit()
    ingest(with_message_id(raw, 3), "pipe")
    assert [m.to_addr for m in outbox("not_understood")][-1] == "stranger@example.com"


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


def test_forged_senders_without_a_key_get_at_most_the_hourly_cap_of_replies(app, game,
                                                                           smtp_port):
    cap = app.config["INBOUND_UNKNOWN_REPLIES_PER_HOUR"]
    assert cap == 10
    victims = [f"victim{n}@example.net" for n in range(cap + 2)]
    for n, victim in enumerate(victims):
        deliver(smtp_port, forged(n, victim), victim, ["vpsleuth@localhost"])
    rows = inbound()
    assert [(r.status, r.from_addr) for r in rows] == [("refused", v) for v in victims]
    assert [m.to_addr for m in outbox("not_understood")] == victims[:cap]
    assert "went to senders without a key in the past hour" in rows[-1].error
    assert outbox() == outbox("not_understood")


def test_replies_to_unknown_senders_resume_when_the_hour_has_passed(app, game):
    app.config["INBOUND_UNKNOWN_REPLIES_PER_HOUR"] = 2
    for n in range(3):
        ingest(forged(n, f"victim{n}@example.net"), "pipe")
    assert len(outbox("not_understood")) == 2
    for mail in outbox("not_understood"):
        mail.created_at = utcnow() - timedelta(minutes=61)
    db.session.commit()
    ingest(forged(3, "victim3@example.net"), "pipe")
    assert [m.to_addr for m in outbox("not_understood")][-1] == "victim3@example.net"
