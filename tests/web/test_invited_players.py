"""An invited player is "invited", not "joined", until they first sign in or send a turn."""

from __future__ import annotations

import re

import pytest
from conftest import CSRF, GM_EMAIL, GmWeb

from vpsleuth.extensions import db
from vpsleuth.models import Player
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import auth, games, turns
from vpsleuth.services.errors import TurnRefused


def player(game, name: str) -> Player:
    db.session.rollback()
    return games.find_player(game, name)


def status_of(page: str, player_id: int) -> str:
    """The invited/joined words in a player's row of the GM's game page."""
    row = page[page.index(f'id="player-{player_id}"'):]
    return re.search(r'<span class="(invited|joined)">([^<]*)</span>', row).group(2)


def open_invitation(app, game, name: str) -> GmWeb:
    """Open the player's invitation link and press its button, as from the mail."""
    target = player(game, name)
    token = auth.issue_token(target.email, purpose="invitation", player=target)
    db.session.commit()
    browser = GmWeb(app, app.test_client())
    page = browser.get(f"/signin/{token}").get_data(as_text=True)
    answer = browser.open("POST", f"/signin/{token}", data={"csrf_token": CSRF.search(page)[1]})
    assert answer.status_code == 302
    return browser


def test_players_are_invited_until_they_open_their_invitation(app, gm_web, gm_running_game):
    ada, bob = player(gm_running_game, "Ada"), player(gm_running_game, "Bob")
    page = gm_web.get(f"/gm/games/{gm_running_game.id}").get_data(as_text=True)
    assert status_of(page, ada.id).startswith("invited ")
    assert status_of(page, bob.id).startswith("invited ")
    board = gm_web.get(f"/gm/games/{gm_running_game.id}/board").get_data(as_text=True)
    assert board.count('<span class="pill invited">invited</span>') == 2

    open_invitation(app, gm_running_game, "Ada")
    page = gm_web.get(f"/gm/games/{gm_running_game.id}").get_data(as_text=True)
    assert status_of(page, ada.id).startswith("joined ")
    assert status_of(page, bob.id).startswith("invited ")
    assert player(gm_running_game, "Ada").first_signed_in_at is not None


def test_the_players_own_list_marks_who_is_only_invited(app, gm_running_game):
    browser = open_invitation(app, gm_running_game, "Ada")
    page = browser.get(f"/games/{gm_running_game.id}").get_data(as_text=True)
    players = re.search(r'<dd class="players">(.*?)</dd>', page, re.S).group(1)
    assert "Ada," in players and 'Bob <span class="muted invited">(invited)</span>' in players


def test_german_gm_pages_say_eingeladen(gm_web, gm_running_game):
    gm_web.get("/lang/de")
    page = gm_web.get(f"/gm/games/{gm_running_game.id}").get_data(as_text=True)
    assert status_of(page, player(gm_running_game, "Bob").id).startswith("eingeladen ")


def test_an_invitation_link_counts_for_its_own_game_only(app, gm_account, gm_running_game):
    other = games.create_game("Onyx", weekly("2030-01-10 20:00", "Europe/Berlin"),
                              actor=GM_EMAIL, game_master_id=gm_account.id)
    games.add_player(other, "Ada", "ada@example.org", actor=GM_EMAIL)
    open_invitation(app, gm_running_game, "Ada")
    assert player(gm_running_game, "Ada").first_signed_in_at is not None
    assert player(other, "Ada").first_signed_in_at is None


def test_signing_in_with_the_address_counts_for_all_its_games(app, gm_account, gm_running_game):
    other = games.create_game("Onyx", weekly("2030-01-10 20:00", "Europe/Berlin"),
                              actor=GM_EMAIL, game_master_id=gm_account.id)
    games.add_player(other, "Ada", "Ada@Example.org", actor=GM_EMAIL)
    GmWeb(app, app.test_client()).sign_in("ada@example.org")
    assert player(gm_running_game, "Ada").first_signed_in_at is not None
    assert player(other, "Ada").first_signed_in_at is not None
    assert player(gm_running_game, "Bob").first_signed_in_at is None


def test_a_turn_by_mail_counts_even_a_refused_one_but_not_one_the_gm_entered(gm_running_game):
    turns.submit_turn(player(gm_running_game, "Bob"), "TIP A RD1\n", channel="gm",
                      entered_by=GM_EMAIL)
    assert player(gm_running_game, "Bob").first_signed_in_at is None
    with pytest.raises(TurnRefused):
        turns.submit_turn(player(gm_running_game, "Bob"), "TIP H RD1\n", channel="email")
    assert player(gm_running_game, "Bob").first_signed_in_at is not None


def test_the_first_moment_stands_when_the_player_signs_in_again(app, gm_running_game):
    open_invitation(app, gm_running_game, "Ada")
    first = player(gm_running_game, "Ada").first_signed_in_at
    GmWeb(app, app.test_client()).sign_in("ada@example.org")
    turns.submit_turn(player(gm_running_game, "Ada"), "TIP A RD1\n", channel="web")
    assert player(gm_running_game, "Ada").first_signed_in_at == first


def test_the_command_line_lists_invited_and_joined(app, runner, gm_running_game):
    open_invitation(app, gm_running_game, "Ada")
    listing = runner.invoke(args=["player", "list", str(gm_running_game.id)]).output
    assert re.search(r"Ada +ada@example\.org +en active joined", listing)
    assert re.search(r"Bob +bob@example\.org +en active invited", listing)
