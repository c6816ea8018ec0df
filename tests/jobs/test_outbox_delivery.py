"""The outbox job against a real SMTP server: headers, back-off, nothing lost, nothing twice."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.mail import outbox
from vpsleuth.mail.keys import reply_address
from vpsleuth.models import OutboxMessage, Player
from vpsleuth.services import games, resolution


def rows() -> list[OutboxMessage]:
    db.session.expire_all()
    return list(db.session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def test_a_sent_mail_is_text_and_html_with_our_message_id_and_a_keyed_reply_to(
        app, sink, new_game, now):
    game = new_game(start=False)
    assert jobs.send_outbox(app, now) == 3
    by_address = {p.email: p for p in game.players}
    assert sorted(rcpt[0] for rcpt, _ in sink.received) == sorted(by_address)
    for rcpt, message in sink.received:
        player = by_address[rcpt[0]]
        kinds = {part.get_content_type() for part in message.walk()}
        assert {"text/plain", "text/html"} <= kinds and message.is_multipart()
        assert message["Message-ID"].endswith("@sleuth.test>")
        assert message["Auto-Submitted"] == "auto-generated"
        assert message["Reply-To"] == reply_address(player)
        assert "sleuth.test" in message["From"]
    assert {r.message_id for r in rows()} == set(sink.message_ids())
    assert {(r.status, r.attempts, r.sent_at) for r in rows()} == {("sent", 1, now)}


def test_smtp_down_backs_off_loses_nothing_and_later_delivers_each_mail_once(
        app, sink, new_game, now):
    new_game()  # three invitations and three round-opened mails
    sink.stop()
    assert jobs.send_outbox(app, now) == 0
    first = rows()
    assert len(first) == 6
    assert {(r.status, r.attempts) for r in first} == {("pending", 1)}
    assert {r.next_attempt_at for r in first} == {now + timedelta(minutes=1)}
    assert all("SMTP unavailable" in r.last_error for r in first)

    assert jobs.send_outbox(app, now + timedelta(seconds=59)) == 0  # not due yet
    assert {r.attempts for r in rows()} == {1}
    assert jobs.send_outbox(app, now + timedelta(minutes=1)) == 0
    assert {r.attempts for r in rows()} == {2}
    assert {r.next_attempt_at for r in rows()} == {now + timedelta(minutes=3)}

    sink.start()
    assert jobs.send_outbox(app, now + timedelta(minutes=2)) == 0  # backing off still
    assert sink.messages == []
    assert jobs.send_outbox(app, now + timedelta(minutes=3)) == 6
    assert jobs.send_outbox(app, now + timedelta(minutes=10)) == 0
    received = Counter(sink.message_ids())
    assert set(received) == {r.message_id for r in rows()}
    assert set(received.values()) == {1}
    assert {r.status for r in rows()} == {"sent"}


def test_a_mail_gives_up_after_the_last_attempt_and_keeps_its_error(app, sink, new_game, now):
    app.config["OUTBOX_MAX_ATTEMPTS"] = 2
    new_game(players=("Ada",), start=False)
    sink.stop()
    jobs.send_outbox(app, now)
    jobs.send_outbox(app, now + timedelta(minutes=1))
    jobs.send_outbox(app, now + timedelta(days=1))
    (row,) = rows()
    assert (row.status, row.attempts) == ("failed", 2)
    assert "SMTP unavailable" in row.last_error
    assert row.body_text  # kept: the GM can read it and retry it


def test_a_recipient_refused_for_good_fails_only_that_mail(app, sink, new_game, now):
    sink.refuse["bob@example.org"] = "550 5.1.1 no such user"
    new_game(start=False)
    assert jobs.send_outbox(app, now) == 2
    status = {r.to_addr: (r.status, r.attempts) for r in rows()}
    assert status == {"ada@example.org": ("sent", 1), "bob@example.org": ("failed", 1),
                      "cyd@example.org": ("sent", 1)}
    assert "550" in next(r.last_error for r in rows() if r.status == "failed")


def test_a_recipient_deferred_for_now_is_tried_again_after_the_back_off(
        app, sink, new_game, now):
    sink.refuse["bob@example.org"] = "450 4.2.0 mailbox busy, try later"
    new_game(start=False)
    assert jobs.send_outbox(app, now) == 2
    bob = next(r for r in rows() if r.to_addr == "bob@example.org")
    assert (bob.status, bob.attempts) == ("pending", 1)
    assert bob.next_attempt_at == now + timedelta(minutes=1)
    del sink.refuse["bob@example.org"]
    assert jobs.send_outbox(app, now + timedelta(minutes=1)) == 1
    assert [m["To"] for m in sink.to("bob@example.org")] == ["bob@example.org"]


def test_without_a_mail_server_mail_waits_in_the_outbox(app, sink, new_game, now):
    app.config["MAIL_SERVER"] = None
    new_game(start=False)
    assert not outbox.sending_enabled()
    assert jobs.send_outbox(app, now + timedelta(days=30)) == 0
    assert {(r.status, r.attempts) for r in rows()} == {("pending", 0)}
    assert sink.messages == []


def test_a_claim_left_by_a_sender_that_died_is_released_and_sent_with_the_same_id(
        app, sink, new_game, now):
    new_game(players=("Ada",), start=False)
    (row,) = rows()
    row.status, row.claimed_at = "sending", now  # a sender died right after claiming it
    db.session.commit()
    assert jobs.send_outbox(app, now + timedelta(minutes=5)) == 0
    assert jobs.send_outbox(app, now + timedelta(minutes=11)) == 1
    assert sink.message_ids() == [row.message_id]


def test_a_report_is_stored_once_per_language_and_every_player_gets_it_whole(
        app, sink, new_game, now):
    game = new_game(start=False)
    games.add_player(game, "Dora", "dora@example.org", language="de", now=now)
    games.start_game(game, now=now, seed=7)
    resolution.resolve_round(game, now=now + timedelta(days=1), actor="gm", number=1)
    reports = [r for r in rows() if r.kind == "report"]
    by_language = {}
    for row in reports:
        by_language.setdefault(db.session.get(Player, row.player_id).language, set()).add(
            row.body_id)
    assert len(reports) == 4 and {k: len(v) for k, v in by_language.items()} == {"en": 1, "de": 1}
    assert "Runde 1" in next(r for r in reports if r.player_id == game.players[-1].id).body_text
    jobs.send_outbox(app, now + timedelta(days=1))
    got = {message["Message-ID"]: (rcpt, message) for rcpt, message in sink.received}
    for row in reports:
        rcpt, message = got[row.message_id]
        assert rcpt == [row.to_addr]
        text_part = message.get_body(("plain",)).get_content()
        html_part = message.get_body(("html",)).get_content()
        assert text_part.replace("\r\n", "\n").strip() == row.body_text.strip()
        assert html_part.replace("\r\n", "\n").strip() == row.body_html.strip()


def test_a_mail_the_server_took_while_the_database_went_away_is_marked_sent_and_not_resent(
        app, sink, new_game, now, monkeypatch):
    """Not marked sent, a mail would be given back after STALE_CLAIM and sent again."""
    new_game(players=("Ada",), start=False)
    mark_sent, calls = outbox._mark_sent, []

    def database_away_once(*args):
        calls.append(args)
        if len(calls) == 1:
            raise OperationalError("UPDATE outbox_message ...", {},
                                   Exception("server closed the connection unexpectedly"),
                                   connection_invalidated=True)
        return mark_sent(*args)

    monkeypatch.setattr(outbox, "_mark_sent", database_away_once)
    assert jobs.send_outbox(app, now) == 1
    assert len(calls) == 2
    (row,) = rows()
    assert (row.status, row.attempts) == ("sent", 1)
    later = now + outbox.STALE_CLAIM + timedelta(minutes=1)
    assert jobs.send_outbox(app, later) == 0
    assert sink.message_ids() == [row.message_id]
