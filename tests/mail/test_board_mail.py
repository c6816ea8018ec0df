"""The game board by mail (issue 20): the board address in every round mail, a mail to it
posts (through the real SMTP receiver), refusals, and the mails of the board: each post,
announcements to all, the daily digest."""

from __future__ import annotations

import os
from datetime import timedelta

from smtp_sink import mailing_to
from sqlalchemy import select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.models import BoardPost, InboundMessage, OutboxMessage, utcnow
from vpsleuth.services import board, bots, games

from .support import inbound, outbox, outbox_mark
from .test_limits import oversized
from .test_smtpd import deliver


def mail_to(address: str, body: str, *, sender: str = "ada@example.org",
            subject: str = "A word to all", html: str | None = None) -> bytes:
    """A plain mail (or an HTML-only one) from ``sender`` to ``address``."""
    kind, text = ("text/html", html) if html is not None else ("text/plain", body)
    return (f"From: Ada Lovelace <{sender}>\nTo: <{address}>\nSubject: {subject}\n"
            f"Message-ID: <{os.urandom(8).hex()}@example.org>\n"
            f"Date: Tue, 1 Dec 2026 10:12:43 +0100\nMIME-Version: 1.0\n"
            f"Content-Type: {kind}; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
            f"{text}\n").encode()


def send(app, sink) -> None:
    """Send the outbox to the SMTP sink (the mail tests' app itself sends nothing)."""
    db.session.commit()
    with mailing_to(app, sink) as mailing:
        jobs.send_outbox(mailing)


def posts() -> list[BoardPost]:
    db.session.expire_all()
    return list(db.session.scalars(select(BoardPost).order_by(BoardPost.id)))


def sent_to(sink, address: str, kind: str) -> list:
    """The mails of ``kind`` the sink received for ``address`` (by our Message-IDs)."""
    ids = set(db.session.scalars(select(OutboxMessage.message_id).where(
        OutboxMessage.kind == kind, OutboxMessage.to_addr == address)))
    return [m for m in sink.to(address) if m["Message-ID"] in ids]


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def html_of(message) -> str:
    return message.get_body(("html",)).get_content().replace("\r\n", "\n")


def test_every_round_mail_shows_the_players_own_board_address(app, sink, game, ada, ben):
    send(app, sink)
    for player, words in ((ada, "To write on the game's board"),
                          (ben, "Um an die Pinnwand des Spiels zu schreiben")):
        [mail] = sent_to(sink, player.email, "round_opened")
        address = keys.board_address(player)
        assert address != keys.reply_address(player) and "+b" in address
        assert f"{address} (" in text_of(mail) and words in text_of(mail)
        assert address in html_of(mail)
        assert mail["Reply-To"] == keys.reply_address(player)  # a reply is still a turn
    assert keys.board_address(ada) not in text_of(sent_to(sink, ben.email, "round_opened")[0])


def test_a_mail_to_the_board_address_posts_and_the_reply_confirms(app, game, ada, ben,
                                                                  smtp_port):
    body = "Good luck, everybody!\nMay the opals be kind.\n\n-- \nAda\n\n> quoted old mail"
    refused = deliver(smtp_port, mail_to(keys.board_address(ada), body), "ada@example.org",
                      [keys.board_address(ada)])
    assert refused == {}
    [row] = inbound()
    assert (row.status, row.player_id, row.game_id) == ("applied", ada.id, game.id)
    assert row.raw.endswith(b"> quoted old mail\r\n")  # stored verbatim first
    [post] = posts()
    assert (post.body, post.channel, post.player_id) == (
        "Good luck, everybody!\nMay the opals be kind.", "email", ada.id)
    [answer] = outbox("board_answer")
    assert answer.to_addr == "ada@example.org"
    assert "your mail is posted on the board" in answer.body_text
    assert "May the opals be kind." in answer.body_text and "quoted" not in answer.body_text
    assert f'"Reply-To": "{keys.board_address(ada)}"' in answer.headers
    assert game.open_round is not None and not outbox("confirmation")  # no turn


def test_a_forged_board_key_and_a_reply_key_used_as_one_are_refused(app, game, ada,
                                                                    smtp_port):
    board_key = keys.board_address(ada).split("@")[0].split(".")[-1]
    reply_key = keys.reply_address(ada).split("@")[0].split(".")[-1]
    flipped = board_key[:-1] + ("a" if board_key[-1] != "a" else "b")
    forged = f"vpsleuth+b{ada.id}.{flipped}@sleuth.test"
    swapped = f"vpsleuth+b{ada.id}.{reply_key}@sleuth.test"  # a reply key as a board key
    as_reply = f"vpsleuth+{ada.id}.{board_key}@sleuth.test"  # and the other way round
    for n, address in enumerate((forged, swapped, as_reply)):
        deliver(smtp_port, mail_to(address, f"Post {n}"), "ada@example.org", [address])
    rows = inbound()
    assert [r.status for r in rows] == ["refused"] * 3
    assert all("player key in the address you wrote to is not valid" in r.error for r in rows)
    assert posts() == []
    [told] = outbox("not_understood")  # one a day to an address without a valid key
    assert "not valid" in told.body_text


def test_a_mail_of_a_megabyte_is_refused_clearly_and_kept(app, game, ada, ben):
    from vpsleuth.mail.inbound import ingest

    limit = app.config["INBOUND_MAX_BYTES"]
    raw = oversized(mail_to(keys.board_address(ada), "Hello").replace(
        b"charset=utf-8\nContent-Transfer-Encoding: 8bit", b"charset=us-ascii"), 1 << 20)
    assert len(raw) > 1 << 20
    row = ingest(raw, "smtp")
    assert (row.status, row.player_id) == ("refused", ada.id)
    assert row.raw == raw[:limit] and row.error.startswith(f"too large: {len(raw)} bytes")
    [answer] = outbox("board_answer")
    assert "Your mail was too large (" in answer.body_text
    assert f"at most {limit // 1024} KiB are read" in answer.body_text
    assert "at most 2,000 characters" in answer.body_text
    assert "Nothing of that mail was posted." in answer.body_text
    assert posts() == []


def test_a_post_too_long_and_an_html_only_post(app, game, ada):
    from vpsleuth.mail.inbound import ingest

    row = ingest(mail_to(keys.board_address(ada), "x" * 2500), "pipe")
    assert row.status == "refused" and posts() == []
    [answer] = outbox("board_answer")
    assert "at most 2,000 characters long; this one has 2,500" in answer.body_text
    html = "<p>Hello <b>all</b></p><script>alert(1)</script>"
    row = ingest(mail_to(keys.board_address(ada), "", html=html), "pipe")
    assert row.status == "applied"
    [post] = posts()
    assert "Hello" in post.body and "all" in post.body and "<b>" not in post.body


def test_a_flood_is_refused_with_a_clear_reply(app, game, ada, smtp_port):
    app.config["BOARD_POSTS_PER_HOUR"] = 2
    for n in range(2):
        board.post(game, f"Post {n}", player=ada, channel="web")
    address = keys.board_address(ada)
    deliver(smtp_port, mail_to(address, "One more"), "ada@example.org", [address])
    [row] = inbound()
    assert row.status == "refused" and "posted 2 times" in row.error
    assert [p.body for p in posts()] == ["Post 0", "Post 1"]
    [answer] = outbox("board_answer")
    assert "You have posted 2 times on the board in the last hour" in answer.body_text
    assert "You may post again at" in answer.body_text


def test_an_ended_game_refuses_a_mailed_post(app, game, ada):
    from vpsleuth.mail.inbound import ingest

    game.state = "finished"
    db.session.commit()
    row = ingest(mail_to(keys.board_address(ada), "gg"), "pipe")
    assert row.status == "refused" and posts() == []
    [answer] = outbox("board_answer")
    assert "'Corpus' has ended; its board is closed." in answer.body_text


def test_each_digest_and_none_and_an_announcement_to_all(app, sink, game, ada, ben):
    cara = games.add_player(game, "Cara", "cara@example.org")
    bots.add_bot(game, "Robo", "easy")
    ada.board_mail, ben.board_mail, cara.board_mail = "each", "digest", "none"
    db.session.commit()
    mark = outbox_mark()
    board.post(game, "Ben here <script>alert(1)</script>", player=ben, channel="web")
    assert [(m.kind, m.to_addr) for m in outbox(after=mark)] == [
        ("board_post", "ada@example.org")]
    board.announce(game, "Round 3 waits a day.", actor="gm@example.org", channel="cli")
    got = [(m.kind, m.to_addr) for m in outbox(after=mark)][1:]
    assert sorted(got) == [("board_announcement", a) for a in (
        "ada@example.org", "ben@example.org", "cara@example.org")]
    send(app, sink)
    [each] = sent_to(sink, "ada@example.org", "board_post")
    assert "Ben wrote on the board" in each["Subject"]
    assert "Ben here <script>alert(1)</script>" in text_of(each)
    assert "&lt;script&gt;" in html_of(each) and "<script>" not in html_of(each)
    assert each["Reply-To"] == keys.board_address(ada)
    [news] = sent_to(sink, "cara@example.org", "board_announcement")
    assert "Round 3 waits a day." in text_of(news)
    assert sent_to(sink, "ben@example.org", "board_post") == []


def test_the_daily_digest_goes_once_to_digest_readers_and_never_when_nothing_is_new(
        app, sink, game, ada, ben):
    ada.board_mail = "none"
    db.session.commit()
    morning = (utcnow() + timedelta(days=1)).replace(hour=9, minute=0)  # 10:00 in Berlin
    assert jobs.send_board_digests(app, morning) == 0  # no post yet
    board.post(game, "First!", player=ada, channel="web")
    second = board.post(game, "Second, by mail.", player=ada, channel="email").id
    hidden = board.post(game, "Oops", player=ada, channel="web")
    board.hide(hidden, actor="gm@example.org")
    board.post(game, "Ben's own", player=ben, channel="web")
    assert jobs.send_board_digests(app, morning.replace(hour=5)) == 0  # 6:00: too early
    assert jobs.send_board_digests(app, morning) == 1
    assert jobs.send_board_digests(app, morning) == 0  # run twice: sent once
    assert jobs.send_board_digests(app, morning + timedelta(days=1)) == 0  # nothing new
    send(app, sink)
    [digest] = sent_to(sink, "ben@example.org", "board_digest")
    text = text_of(digest)
    assert "First!" in text and "Second, by mail." in text
    assert "Oops" not in text and "Ben's own" not in text
    assert "2 neue Beiträge" in digest["Subject"]
    assert digest["Reply-To"] == keys.board_address(ben)
    assert sent_to(sink, "ada@example.org", "board_digest") == []
    db.session.expire_all()
    assert games.find_player(game, "Ben").board_told_post_id == second  # the newest told


def test_a_reply_to_a_digest_posts_on_the_board(app, game, ada, ben):
    from vpsleuth.mail.inbound import ingest

    board.post(game, "Anyone for a truce?", player=ada, channel="web")
    jobs.send_board_digests(app, (utcnow() + timedelta(days=1)).replace(hour=9))
    [digest] = outbox("board_digest")
    reply_to = digest.headers.split('"Reply-To": "')[1].split('"')[0]
    raw = mail_to(reply_to, "Ja, gerne.\n\nAm Montag schrieb VP-Sleuth:\n> Anyone?",
                  sender="ben@example.org", subject=f"AW: {digest.subject}")
    assert ingest(raw, "pipe").status == "applied"
    assert [p.body for p in posts()] == ["Anyone for a truce?", "Ja, gerne."]
    assert db.session.scalar(select(InboundMessage.player_id)) == ben.id


def test_an_old_board_key_stops_when_the_address_changes(app, game, ada):
    from vpsleuth.mail.inbound import ingest

    old = keys.board_address(ada)
    ada.key_generation = (ada.key_generation or 0) + 1  # what an address change does
    db.session.commit()
    assert keys.board_address(ada) != old
    row = ingest(mail_to(old, "Still me?"), "pipe")
    assert row.status == "refused" and "not valid" in row.error and posts() == []
    assert ingest(mail_to(keys.board_address(ada), "Me, anew."), "pipe").status == "applied"


def test_a_second_scheduler_that_read_the_same_place_sends_no_second_digest(app, game, ada,
                                                                            ben):
    from sqlalchemy.orm.attributes import set_committed_value

    from vpsleuth.services import board_digest

    board.post(game, "Hello", player=ada, channel="web")
    morning = (utcnow() + timedelta(days=1)).replace(hour=9)
    assert ben.board_told_post_id is None
    assert jobs.send_board_digests(app, morning) == 1  # Ben only (Ada wrote it)
    db.session.expire_all()
    stale = db.session.get(type(ben), ben.id)
    set_committed_value(stale, "board_told_post_id", None)  # as the other one read it
    assert board_digest._digest(stale, morning) is False  # its conditional UPDATE finds 0 rows
    assert len(outbox("board_digest")) == 1
