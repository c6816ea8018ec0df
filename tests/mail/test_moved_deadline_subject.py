"""After the GM moves a deadline, a confirmation's subject carries the new one.

The confirmation answers the player's reply, whose subject quotes our round mail's
("round 1 is open until <date>"): the date in it is brought up to date. Through the
real inbound pipe (``vpsleuth mail ingest``).
"""

from __future__ import annotations

from datetime import timedelta

from vpsleuth.extensions import db
from vpsleuth.i18n.dates import deadline_text
from vpsleuth.services import gm

from .support import corpus, outbox, outbox_mark
from .test_ingest_command import run_ingest


def moved(game):
    new = game.open_round.deadline + timedelta(days=2, hours=1)
    gm.move_deadline(game, new, actor="gm@example.org")
    return new


def test_a_confirmation_after_a_moved_deadline_names_the_new_deadline(app, game, ada):
    new = moved(game)
    mark = outbox_mark()
    done = run_ingest(app, corpus("gmail_reply.eml", ada))
    assert done.returncode == 0, done.stderr.decode()
    db.session.expire_all()
    [mail] = outbox("confirmation", after=mark)
    assert mail.subject == ("Re: Corpus: round 1 is open until "
                            + deadline_text(new, "Europe/Berlin", "en"))
    assert "Sun 6 Dec 2026" not in mail.subject


def test_a_german_reply_gets_the_new_deadline_in_german(app, game, ben):
    new = moved(game)
    mark = outbox_mark()
    done = run_ingest(app, corpus("outlook_de.eml", ben))
    assert done.returncode == 0, done.stderr.decode()
    db.session.expire_all()
    [mail] = outbox("confirmation", after=mark)
    assert mail.subject == ("AW: Corpus: Runde 1 läuft bis "
                            + deadline_text(new, "Europe/Berlin", "de"))


def test_a_subject_of_its_own_is_answered_as_it_was(app, game, ada):
    moved(game)
    raw = corpus("gmail_reply.eml", ada).replace(
        b"Subject: Re: Corpus: round 1 is open until Sun 6 Dec 2026, 20:00 CET",
        b"Subject: my turn")
    mark = outbox_mark()
    assert run_ingest(app, raw).returncode == 0
    db.session.expire_all()
    [mail] = outbox("confirmation", after=mark)
    assert mail.subject == "Re: my turn"
