"""The settings page: mails per game, language, time zone, API tokens."""

from __future__ import annotations

import re

from vpsleuth.extensions import db
from vpsleuth.services import accounts, games

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def post(client, **data):
    page = client.get("/settings").get_data(as_text=True)
    return client.post("/settings", data={"csrf_token": CSRF.search(page).group(1), **data})


def fresh(game, name):
    db.session.expire_all()
    return games.find_player(game, name)


def test_the_settings_list_every_game_of_the_viewer_with_their_choices(moonstone, make_game,
                                                                       ada):
    make_game("Second", players={"Ada B.": "ada@example.org"})
    page = ada.get("/settings").get_data(as_text=True)
    assert "Moonstone" in page and "Second" in page
    assert page.count('name="wants_reminders" checked') == 2


def test_saving_changes_the_mails_language_and_time_zone_of_that_game_only(moonstone, make_game,
                                                                           ada):
    second = make_game("Second", players={"Ada B.": "ada@example.org"})
    player = games.find_player(moonstone, "Ada")
    response = post(ada, action="prefs", player_id=player.id, wants_round_mail="on",
                    language="de", timezone="America/New_York")
    assert response.status_code == 302
    player = fresh(moonstone, "Ada")
    assert (player.wants_round_mail, player.wants_reminders, player.wants_confirmations) == (
        True, False, False)
    assert (player.language, player.timezone) == ("de", "America/New_York")
    other = fresh(second, "Ada B.")
    assert (other.wants_reminders, other.language, other.timezone) == (True, "en", None)
    assert "Your settings for Moonstone are saved." in ada.get("/settings").get_data(as_text=True)


def test_the_chosen_time_zone_is_used_for_the_deadline_on_the_pages(moonstone, ada):
    player = games.find_player(moonstone, "Ada")
    post(ada, action="prefs", player_id=player.id, language="en", timezone="Asia/Tokyo")
    page = ada.get(f"/games/{moonstone.id}").get_data(as_text=True)
    assert 'data-tz="Asia/Tokyo"' in page and re.search(r"JST</time>", page)


def test_an_unknown_time_zone_is_refused_with_a_suggestion_and_nothing_changes(moonstone, ada):
    player = games.find_player(moonstone, "Ada")
    response = post(ada, action="prefs", player_id=player.id, language="de",
                    timezone="Europe/Berln")
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Unknown timezone &#39;Europe/Berln&#39;. Did you mean &#39;Europe/Berlin&#39;?" in page
    assert 'value="Europe/Berln"' in page, "what was entered is kept"
    assert (fresh(moonstone, "Ada").language, fresh(moonstone, "Ada").timezone) == ("en", None)


def test_a_player_cannot_change_the_settings_of_another_player(moonstone, ada):
    ben = games.find_player(moonstone, "Ben")
    response = post(ada, action="prefs", player_id=ben.id, language="de")
    assert response.status_code == 404
    assert fresh(moonstone, "Ben").language == "en"


def test_a_token_is_shown_once_works_and_can_be_revoked(moonstone, ada):
    player = games.find_player(moonstone, "Ada")
    page = post(ada, action="token", player_id=player.id, label="my bot").get_data(as_text=True)
    raw = re.search(r'<code id="new-token">(vps_[^<]+)</code>', page).group(1)
    assert accounts.token_for(raw).player_id == player.id
    listing = ada.get("/settings").get_data(as_text=True)
    assert raw not in listing and "my bot" in listing
    token_id = accounts.token_for(raw).id
    assert post(ada, action="revoke", token_id=token_id).status_code == 302
    assert accounts.token_for(raw) is None
    assert "my bot" not in ada.get("/settings").get_data(as_text=True)


def test_a_player_cannot_revoke_another_players_token(moonstone, ada):
    _, raw = accounts.issue_api_token(player=games.find_player(moonstone, "Ben"), label="ben")
    response = post(ada, action="revoke", token_id=accounts.token_for(raw).id)
    assert response.status_code == 404
    assert accounts.token_for(raw) is not None


def test_the_board_by_mail_is_chosen_per_game_and_a_bad_value_is_refused(moonstone, ada):
    player = games.find_player(moonstone, "Ada")
    assert player.board_mail == "digest"  # the default
    page = ada.get("/settings").get_data(as_text=True)
    assert f'id="board-mail-digest-{player.id}" name="board_mail" value="digest" checked' in page
    response = post(ada, action="prefs", player_id=player.id, language="en", board_mail="each")
    assert response.status_code == 302 and fresh(moonstone, "Ada").board_mail == "each"
    response = post(ada, action="prefs", player_id=player.id, language="en",
                    board_mail="hourly")
    assert response.status_code == 400
    assert "the board by mail is one of each, digest, none, not &#39;hourly&#39;" in \
        response.get_data(as_text=True)
    assert fresh(moonstone, "Ada").board_mail == "each"
