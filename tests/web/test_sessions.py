"""Sessions end when they should: sign-out, sign-out everywhere, a changed address.

Through a real HTTP server; a "copied cookie" is a second browser holding the
first one's cookies.
"""

from __future__ import annotations

import re

import pytest
import requests
from browser_support import serve
from http_support import Browser
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.models import Game, OutboxMessage
from vpsleuth.services import accounts, auth, gm
from vpsleuth.web.feeds import feed_token

ADA = "ada@example.org"
LINK = re.compile(r"/(signin|settings/address)/([\w.\-]+)")


@pytest.fixture
def live(app, moonstone):
    with serve(app) as base:
        yield base, moonstone.id


def signed_out(browser: Browser, game_id: int) -> bool:
    """True if the browser is sent to sign in instead of seeing the game."""
    response = browser.get(f"/games/{game_id}")
    return response.status_code == 302 and "/signin" in response.headers["Location"]


def _ada(game_id: int):
    db.session.rollback()
    return next(p for p in db.session.get(Game, game_id).players if p.name == "Ada")


def _invitation_token(game_id: int) -> str:
    db.session.rollback()
    mail = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "invitation", OutboxMessage.game_id == game_id,
        OutboxMessage.to_addr == ADA)).one()
    return LINK.search(mail.body_text).group(2)


def test_signing_out_ends_the_session_on_the_server_so_a_copied_cookie_stops(live):
    base, game = live
    ada = Browser(base).sign_in(ADA)
    thief = ada.copy()
    assert thief.get(f"/games/{game}").status_code == 200
    assert ada.post("/signout", form_page="/").status_code == 302
    assert signed_out(ada, game)
    assert signed_out(thief, game), "the copied cookie still works after sign-out"


def test_sign_out_everywhere_ends_every_session_of_the_address(live):
    base, game = live
    laptop, phone = Browser(base).sign_in(ADA), Browser(base).sign_in(ADA)
    ben = Browser(base).sign_in("ben@example.org")
    assert "signout-everywhere" in laptop.get("/settings").text
    assert laptop.post("/signout/everywhere", form_page="/settings").status_code == 302
    assert signed_out(laptop, game) and signed_out(phone, game)
    assert not signed_out(ben, game), "another address's session ended too"


def test_an_invitation_session_signs_out_everywhere_only_its_own_kind(live):
    base, game = live
    full = Browser(base).sign_in(ADA)
    invited = Browser(base)
    assert invited.open_link(_invitation_token(game)).status_code == 302
    assert invited.post("/signout/everywhere", form_page="/settings").status_code == 302
    assert signed_out(invited, game)
    assert not signed_out(full, game), "an invitation link could sign the address out"


def test_a_changed_address_leaves_the_old_one_nothing(live):
    base, game = live
    ada = _ada(game)
    invitation = _invitation_token(game)
    full, invited = Browser(base).sign_in(ADA), Browser(base)
    assert invited.open_link(invitation).status_code == 302
    _, api_token = accounts.issue_api_token(player=ada)
    feed = f"/games/{game}/feed.atom?token={feed_token(ada)}"
    old_reply = keys.reply_address(ada)
    unused = auth.issue_token(ADA, purpose="invitation", player=ada)
    db.session.commit()
    assert Browser(base).get(feed).status_code == 200
    assert keys.player_for_addresses([old_reply]).id == ada.id

    gm.change_email(_ada(game), "ada@new.example.org", actor="gm@example.org")

    assert signed_out(full, game) and signed_out(invited, game)
    answer = requests.get(f"{base}/api/v1/games", timeout=10,
                          headers={"Authorization": f"Bearer {api_token}"})
    assert answer.status_code == 401
    assert Browser(base).get(feed).status_code == 404, "the old feed link still works"
    db.session.rollback()
    assert keys.player_for_addresses([old_reply]) is None, "the old mailbox can still send turns"
    assert keys.player_for_addresses([keys.reply_address(_ada(game))]).id == ada.id
    refused = Browser(base).open_link(unused)
    assert refused.status_code == 400 and "address it was sent to has changed" in refused.text


def test_a_player_changes_their_own_address_by_a_link_sent_to_the_new_one(live):
    base, game = live
    ada = Browser(base).sign_in(ADA)
    asked = ada.post("/settings", {"action": "address", "player_id": _ada(game).id,
                                   "email": "ada@new.example.org"}, form_page="/settings")
    assert asked.status_code == 302
    db.session.rollback()
    assert _ada(game).email == ADA, "nothing changes before the link is opened"
    mail = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "address_change")).one()
    assert mail.to_addr == "ada@new.example.org"
    token = LINK.search(mail.body_text).group(2)

    new_mailbox = Browser(base)
    assert new_mailbox.post(f"/settings/address/{token}",
                            form_page=f"/settings/address/{token}").status_code == 302
    assert _ada(game).email == "ada@new.example.org"
    assert new_mailbox.get(f"/games/{game}").status_code == 200
    assert signed_out(ada, game), "the old address's session outlived the change"
    again = Browser(base).post(f"/settings/address/{token}",
                               form_page=f"/settings/address/{token}")
    assert again.status_code == 400


def test_an_address_change_link_is_no_sign_in_link_and_the_reverse(live):
    base, game = live
    ada = Browser(base).sign_in(ADA)
    ada.post("/settings", {"action": "address", "player_id": _ada(game).id,
                           "email": "ada@new.example.org"}, form_page="/settings")
    db.session.rollback()
    token = LINK.search(db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "address_change")).one().body_text).group(2)
    assert Browser(base).open_link(token).status_code == 400
    invitation = _invitation_token(game)
    wrong_door = Browser(base).post(f"/settings/address/{invitation}",
                                    form_page=f"/settings/address/{invitation}")
    assert wrong_door.status_code == 400
    assert _ada(game).email == ADA
