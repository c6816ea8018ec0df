"""Open games: a GM lists a game, signed-in visitors ask to join, the GM decides.

"Emerald" is run by Grace with Ada and Bob; Cleo plays in another game, so she
can sign in, and asks to join Emerald.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from conftest import GM_EMAIL
from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, Game, JoinRequest, LoginToken, OutboxMessage, Player
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, auth, games, lobby
from vpsleuth.services.access import viewer_for
from vpsleuth.services.errors import ServiceError

CLEO, DAN = "cleo@example.org", "dan@example.org"


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def words(response) -> str:
    """The page's text as read: no tags, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", text(response)).split()).replace(" :", ":")


def fresh(model, ident):
    db.session.rollback()
    return db.session.get(model, ident)


def mails(kind: str) -> list[OutboxMessage]:
    db.session.rollback()
    return list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind)
                                   .order_by(OutboxMessage.id)))


@pytest.fixture
def elsewhere(app):
    """A game without a GM account where Cleo and Dan play, so that they can sign in."""
    game = games.create_game("Elsewhere", weekly("2031-01-05 20:00", "UTC"))
    games.add_player(game, "Cleo", CLEO, invite=False)
    games.add_player(game, "Dan", DAN, invite=False)
    return game


@pytest.fixture
def listed(gm_web, gm_running_game, elsewhere):
    """Emerald, listed as open for four players at most (Ada and Bob play)."""
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/listing",
                           {"open_to_join": "y", "max_players": "4"})
    assert response.status_code == 302
    return fresh(Game, gm_running_game.id)


def ask(web, game, name="Cleo", message="I love deduction games.\nSunday evenings suit me.",
        language="de"):
    return web.post(f"/games/open/{game.id}", {"name": name, "message": message,
                                               "language": language})


def test_a_listed_game_shows_its_house_rules_and_room_to_every_signed_in_visitor(
        listed, gm_web_as):
    cleo = gm_web_as(CLEO)
    page = text(cleo.get("/games/open"))
    assert "Emerald" in page and "Elsewhere" not in page
    assert "2 of 4" in page  # players
    assert "right +1, wrong -2" in page and "3, 2, 1 from round 5" in page
    assert "Grace" in page  # its game master
    assert f'href="/games/open/{listed.id}"' in page
    assert 'id="open-games-link"' in text(cleo.get("/"))
    detail = text(cleo.get(f"/games/open/{listed.id}"))
    assert 'id="send-join-request"' in detail and "The game and its house rules" in detail


def test_asking_to_join_stores_one_request_and_tells_the_gm(listed, gm_web_as):
    cleo = gm_web_as(CLEO)
    response = ask(cleo, listed)
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/games/open#game-{listed.id}")
    request = db.session.scalars(select(JoinRequest)).one()
    assert (request.email, request.name, request.language, request.state) == (
        CLEO, "Cleo", "de", "pending")
    assert request.message == "I love deduction games.\nSunday evenings suit me."
    [to_gm] = mails("join_request")
    assert to_gm.to_addr == GM_EMAIL and "Cleo" in to_gm.subject
    assert "Sunday evenings suit me." in to_gm.body_text
    assert f"/gm/games/{listed.id}#join-requests" in to_gm.body_text
    # One request per address and game, however it is asked.
    again = ask(cleo, listed, name="Cleo Two")
    assert again.status_code == 400 and "asked to join this game already" in text(again)
    assert db.session.scalar(select(func.count()).select_from(JoinRequest)) == 1
    assert "You asked to join as Cleo: waiting for the game master's answer" in words(
        cleo.get("/games/open"))


def test_the_gm_sees_requests_on_the_game_page_and_accepting_sends_the_normal_invitation(
        listed, gm_web, gm_web_as):
    ask(gm_web_as(CLEO), listed)
    request = db.session.scalars(select(JoinRequest)).one()
    page = text(gm_web.get(f"/gm/games/{listed.id}"))
    assert "Requests to join" in page and CLEO in page and "Sunday evenings suit me." in page
    assert "Requests to join: 1" in words(gm_web.get("/gm/"))  # the console's list says so
    response = gm_web.post(f"/gm/games/{listed.id}/requests/{request.id}/accept",
                           {"name": "Cleo"})
    assert response.status_code == 302
    request = fresh(JoinRequest, request.id)
    player = db.session.get(Player, request.player_id)
    assert (request.state, player.name, player.email, player.language) == (
        "accepted", "Cleo", CLEO, "de")
    [invitation] = [m for m in mails("invitation") if m.player_id == player.id]
    assert invitation.to_addr == CLEO and "Einladung" in invitation.subject
    # The link in it is an invitation's: good for this one player only.
    token = db.session.scalars(select(LoginToken).where(LoginToken.player_id == player.id)).one()
    assert token.purpose == "invitation"
    actions = db.session.scalars(select(AuditEntry.action).where(
        AuditEntry.game_id == listed.id)).all()
    assert "accept_join" in actions and "add_player" in actions
    # Decided once: a second accept changes nothing.
    assert gm_web.post(f"/gm/games/{listed.id}/requests/{request.id}/accept").status_code == 409
    assert "Requests to join" not in text(gm_web.get("/gm/"))  # none waiting


def test_declining_tells_the_requester_by_mail_in_the_language_they_asked_in(
        listed, gm_web, gm_web_as):
    cleo = gm_web_as(CLEO)
    ask(cleo, listed)
    request = db.session.scalars(select(JoinRequest)).one()
    response = gm_web.post(f"/gm/games/{listed.id}/requests/{request.id}/decline")
    assert response.status_code == 302
    assert fresh(JoinRequest, request.id).state == "declined"
    [declined] = mails("join_declined")
    assert declined.to_addr == CLEO and "abgelehnt" in declined.body_text
    assert "/games/open" in declined.body_text
    assert db.session.scalar(select(func.count()).select_from(Player).where(
        Player.email == CLEO, Player.game_id == listed.id)) == 0
    assert "You asked to join as Cleo: declined" in words(cleo.get("/games/open"))


def test_a_full_game_shows_as_full_and_takes_no_request(listed, gm_web, gm_web_as):
    gm_web.post(f"/gm/games/{listed.id}/listing", {"open_to_join": "y", "max_players": "2"})
    cleo = gm_web_as(CLEO)
    assert "full" in text(cleo.get("/games/open"))
    response = ask(cleo, listed)
    assert response.status_code == 409
    assert db.session.scalar(select(func.count()).select_from(JoinRequest)) == 0
    # The limit holds for the GM's own invitations too.
    invite = gm_web.post(f"/gm/games/{listed.id}/players",
                         {"name": "Eve", "email": "eve@example.org", "language": "en"})
    assert invite.status_code == 400 and "is full" in text(invite)


def test_accepting_into_a_game_that_filled_up_meanwhile_is_refused(listed, gm_web, gm_web_as):
    ask(gm_web_as(CLEO), listed)
    request = db.session.scalars(select(JoinRequest)).one()
    gm_web.post(f"/gm/games/{listed.id}/listing", {"open_to_join": "y", "max_players": "2"})
    response = gm_web.post(f"/gm/games/{listed.id}/requests/{request.id}/accept")
    assert response.status_code == 409 and "is full" in text(response)
    assert fresh(JoinRequest, request.id).state == "pending"


def test_an_ended_or_unlisted_game_is_not_listed_and_takes_no_request(listed, gm_web, gm_web_as):
    cleo = gm_web_as(CLEO)
    gm_web.post(f"/gm/games/{listed.id}/listing", {"max_players": "4"})  # unlisted
    assert "Emerald" not in text(cleo.get("/games/open"))
    assert cleo.get(f"/games/open/{listed.id}").status_code == 404
    assert ask(cleo, listed).status_code == 404
    game = fresh(Game, listed.id)
    game.open_to_join, game.state = True, "finished"
    db.session.commit()
    assert "Emerald" not in text(cleo.get("/games/open"))
    assert ask(cleo, listed).status_code == 404
    with pytest.raises(ServiceError, match="has ended"):
        lobby.set_listing(fresh(Game, listed.id), open_to_join=True, max_players=None)


def test_only_the_gm_of_the_game_sees_or_decides_its_requests(listed, gm_web_as):
    ask(gm_web_as(CLEO), listed)
    request = db.session.scalars(select(JoinRequest)).one()
    accounts.create_game_master("otto@example.org", "Otto")
    for who in ("otto@example.org", "ada@example.org", DAN):
        web = gm_web_as(who)
        page = web.get(f"/gm/games/{listed.id}")
        assert page.status_code == 404, who
        for action in ("accept", "decline"):
            answer = web.post(f"/gm/games/{listed.id}/requests/{request.id}/{action}")
            assert answer.status_code == 404, (who, action)
            assert "Emerald" not in text(answer) and CLEO not in text(answer)
        assert CLEO not in text(web.get("/games/open"))
    assert fresh(JoinRequest, request.id).state == "pending"


def test_a_request_of_another_game_is_not_found_on_this_one(listed, gm_web, gm_web_as,
                                                            gm_account):
    other = games.create_game("Topaz", weekly("2031-01-05 20:00", "UTC"),
                              game_master_id=gm_account.id)
    lobby.set_listing(other, open_to_join=True, max_players=None)
    ask(gm_web_as(CLEO), other)
    request = db.session.scalars(select(JoinRequest)).one()
    response = gm_web.post(f"/gm/games/{listed.id}/requests/{request.id}/accept")
    assert response.status_code == 404
    assert fresh(JoinRequest, request.id).state == "pending"


def test_players_and_its_gm_are_told_where_they_stand_instead_of_asking(listed, gm_web,
                                                                        gm_web_as):
    ada = gm_web_as("ada@example.org")
    assert "You play in this game." in text(ada.get("/games/open"))
    assert ask(ada, listed, name="Ada Two").status_code == 400
    assert "You run this game." in text(gm_web.get("/games/open"))
    assert ask(gm_web, listed, name="Grace").status_code == 400
    assert db.session.scalar(select(func.count()).select_from(JoinRequest)) == 0


def test_an_invitation_session_sees_no_open_games(listed, app):
    """Vera came in by her invitation to Emerald: that game only, nothing more."""
    from conftest import CSRF, GmWeb

    vera = games.add_player(fresh(Game, listed.id), "Vera", "vera@example.org")
    token = auth.issue_token("vera@example.org", purpose="invitation", player=vera)
    db.session.commit()
    web = GmWeb(app, app.test_client())
    page = web.get(f"/signin/{token}").get_data(as_text=True)
    web.open("POST", f"/signin/{token}", data={"csrf_token": CSRF.search(page).group(1)})
    assert web.get("/games/open").status_code == 403
    assert 'id="open-games-link"' not in text(web.get("/"))


def test_a_signed_out_visitor_is_sent_to_sign_in(listed, gm_visitor):
    response = gm_visitor.get("/games/open")
    assert response.status_code == 302 and "/signin?next=" in response.headers["Location"]


@pytest.mark.parametrize("name, message, expected", [
    ("", "hi", "give a name"), ("A\nB", "", "one line"), ("Ada", "", "plays in this game"),
    ("Cleo", "x" * 1001, "at most 1000"),
])
def test_a_bad_request_is_refused_with_its_reason_and_keeps_the_input(
        listed, gm_web_as, name, message, expected):
    cleo = gm_web_as(CLEO)
    response = ask(cleo, listed, name=name, message=message)
    assert response.status_code == 400 and expected in text(response)
    assert db.session.scalar(select(func.count()).select_from(JoinRequest)) == 0
    assert mails("join_request") == []


def test_requests_are_limited_per_address_a_day(app, gm_account, elsewhere):
    app.config["JOIN_REQUESTS_PER_ADDRESS_PER_DAY"] = 2
    open_ones = []
    for name in ("Agate", "Beryl", "Coral"):
        game = games.create_game(name, weekly("2031-01-05 20:00", "UTC"),
                                 game_master_id=gm_account.id)
        lobby.set_listing(game, open_to_join=True, max_players=None)
        open_ones.append(game)
    cleo = viewer_for(CLEO)
    lobby.ask_to_join(cleo, open_ones[0].id, "Cleo")
    lobby.ask_to_join(cleo, open_ones[1].id, "Cleo")
    with pytest.raises(auth.RateLimited):
        lobby.ask_to_join(cleo, open_ones[2].id, "Cleo")
    # A day later the window has moved on.
    later = lobby.utcnow() + timedelta(days=1, minutes=1)
    lobby.ask_to_join(cleo, open_ones[2].id, "Cleo", now=later)


def test_requests_are_limited_per_game_a_day(app, gm_account, elsewhere):
    app.config["JOIN_REQUESTS_PER_GAME_PER_DAY"] = 1
    game = games.create_game("Agate", weekly("2031-01-05 20:00", "UTC"),
                             game_master_id=gm_account.id)
    lobby.set_listing(game, open_to_join=True, max_players=None)
    lobby.ask_to_join(viewer_for(CLEO), game.id, "Cleo")
    with pytest.raises(auth.RateLimited, match="many requests today"):
        lobby.ask_to_join(viewer_for(DAN), game.id, "Dan")


def test_the_new_game_form_lists_the_game_as_open_with_a_limit(gm_web):
    from test_gm_games import game_form

    response = gm_web.post("/gm/games/new", game_form(open_to_join="y", max_players="6"))
    assert response.status_code == 302
    game = db.session.scalars(select(Game).where(Game.name == "Ruby")).one()
    assert (game.open_to_join, game.max_players) == (True, 6)
    refused = gm_web.post("/gm/games/new", game_form(name="Opal", max_players="zero"))
    assert refused.status_code == 400 and "whole number" in text(refused)
    assert db.session.scalar(select(Game.id).where(Game.name == "Opal")) is None


def test_after_the_game_ends_a_waiting_request_can_still_be_declined(listed, gm_web, gm_web_as):
    ask(gm_web_as(CLEO), listed)
    request = db.session.scalars(select(JoinRequest)).one()
    game = fresh(Game, listed.id)
    game.state = "finished"
    db.session.commit()
    page = text(gm_web.get(f"/gm/games/{listed.id}"))
    assert "decline-request" in page and "accept-request" not in page
    assert gm_web.post(f"/gm/games/{listed.id}/requests/{request.id}/accept").status_code == 409
    assert gm_web.post(f"/gm/games/{listed.id}/requests/{request.id}/decline").status_code == 302
    assert [m.to_addr for m in mails("join_declined")] == [CLEO]


def test_an_exported_game_keeps_its_player_limit_but_is_not_listed_where_it_is_imported(
        listed):
    from vpsleuth.services import transfer

    data = transfer.export_game(fresh(Game, listed.id), with_secret=True)
    copy = transfer.import_game(data, name="Emerald (copy)")
    assert (copy.max_players, copy.open_to_join) == (4, False)
