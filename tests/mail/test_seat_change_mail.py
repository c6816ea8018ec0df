"""A seat handed on, by mail: the newcomer's invitation reaches a real SMTP server and
signs in to the seat's points; the old holder is told, and a reply with the old key is
answered clearly and changes nothing."""

from __future__ import annotations

import re

import pytest
from smtp_sink import mailing_to
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import keys, outbox
from vpsleuth.mail.inbound import ingest
from vpsleuth.models import OutboxMessage, StandingTip
from vpsleuth.rules import GEMS, Distribution
from vpsleuth.services import games, resolution, seats, turns

from .support import corpus

DORA = "dora@example.org"
LINK = re.compile(r"https?://[^/\s]+/signin/([\w.\-]+)")
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def app(app, sink):
    """The usual app (one database, emptied), built again to send its mail to the sink."""
    with mailing_to(app, sink) as mailing:
        yield mailing


def _two_right(game) -> str:
    deal = Distribution.from_canonical(game.secret.distribution)
    return "\n".join(f"TIP {deal[gem]} {gem.code}" for gem in GEMS[:2])


def test_the_newcomer_is_invited_by_real_mail_and_signs_in_to_the_seats_points(app, game, ada,
                                                                             sink):
    turns.submit_turn(ada, _two_right(game), channel="web")
    resolution.resolve_round(game, number=1, actor="gm")
    old_reply = keys.reply_address(ada)
    seats.replace_player(game, ada, "Dora", DORA, actor="gm", language="es")
    db.session.commit()
    while outbox.send_due():
        pass
    [invitation] = sink.to(DORA)
    assert invitation["Subject"] == ("Te invitan a tomar un puesto en la partida de VP-Sleuth "
                                     "«Corpus»")
    text = invitation.get_body(("plain",)).get_content()
    assert "es tuyo a partir de la ronda 2" in text
    [notice] = sink.to("ada@example.org")[-1:]
    assert notice["Subject"] == 'Your seat in "Corpus" has passed to another player'
    assert "who plays it from round 2. Thank you for playing!" in " ".join(
        notice.get_body(("plain",)).get_content().split())
    assert "vpsleuth+" not in str(notice.get("Reply-To", "")), "no key for the old address"

    client = app.test_client()
    token = LINK.search(text).group(1)
    page = client.get(f"/signin/{token}").get_data(as_text=True)
    signed = client.post(f"/signin/{token}", data={"csrf_token": CSRF.search(page).group(1)})
    assert signed.status_code == 302
    standings = client.get(f"/games/{game.id}/standings").get_data(as_text=True)
    assert "Dora (from round 2)" in standings
    row = re.search(r'class="me">.*?</tr>', standings, re.S).group(0)
    assert ">2</td>" in row, "the seat's two points stay with it"

    # The old holder replies with the key of the round mail she had: refused, and told why.
    before = db.session.scalar(select(StandingTip.id).order_by(StandingTip.id.desc()))
    row = ingest(corpus("gmail_reply.eml", TO=old_reply, IN_REPLY_TO="x@example.org"), "pipe")
    assert row.status == "refused"
    answer = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.to_addr == "ada@example.org").order_by(OutboxMessage.id.desc())).first()
    assert answer.kind == "not_understood"
    assert ("the game master has handed that seat on to another player, and this address no "
            "longer plays in the game") in " ".join(answer.body_text.split())
    assert db.session.scalar(select(StandingTip.id).order_by(StandingTip.id.desc())) == before
    assert games.find_player(game, "Dora").email == DORA
