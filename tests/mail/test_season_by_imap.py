"""The season's mail through the IMAP watcher's poll against a real Dovecot: an absence
line, a post to the board address, and a replaced seat's old reply key, in one poll."""

from __future__ import annotations

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound import poll_imap
from vpsleuth.models import Absence, BoardPost, TurnVersion
from vpsleuth.services import seats

from .support import inbound, outbox
from .test_absence_mail import days, reply


def test_one_poll_notes_an_absence_posts_to_the_board_and_refuses_a_handed_on_key(
        app, game, ada, ben, mailbox):
    first, last = days(ada, 3, 4)
    old_key = keys.reply_address(ben)
    seats.replace_player(game, ben, "Bea", "bea@example.org", actor="gm")
    db.session.commit()
    mailbox.append(reply(ada, f"ABSENT {first.isoformat()} {last.isoformat()}\n"))
    mailbox.append(reply(ada, "Good luck, everyone!\n\nCheers, Ada",
                         to=keys.board_address(ada)))
    forged = reply(ada, "TIP A RD1", to=old_key).replace(
        b"From: Ada <ada@example.org>", b"From: Ben <ben@example.org>")
    mailbox.append(forged)
    result = poll_imap(app)
    assert (len(result.stored), result.moved, result.errors) == (3, 3, [])
    assert mailbox.messages(mailbox.folder) == []
    rows = inbound()
    assert [(r.source, r.status) for r in rows] == [
        ("imap", "applied"), ("imap", "applied"), ("imap", "refused")]
    db.session.expire_all()
    [absence] = db.session.scalars(select(Absence)).all()
    assert (absence.player_id, absence.starts, absence.ends, absence.channel) == (
        ada.id, first, last, "email")
    [post] = db.session.scalars(select(BoardPost)).all()
    assert (post.player_id, post.body, post.channel) == (ada.id, "Good luck, everyone!",
                                                         "email")
    assert db.session.scalars(select(TurnVersion)).all() == []  # neither mail was a turn
    kinds = sorted(m.kind for m in outbox())
    assert "absence" in kinds and "board_answer" in kinds
    assert rows[2].player_id is None and "handed that seat on" in rows[2].error
    [told] = [m for m in outbox() if m.to_addr == "ben@example.org" and m.kind != "seat_handed_on"]
    assert "no longer plays in the game" in told.body_text
