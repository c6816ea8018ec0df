"""Names and labels are one line: a CR/LF (or any control character) is refused on the forms.

A line break in a game's or player's name would reach a mail's Subject or To
header; the service layer refuses it, so web, API and command line alike.
"""

from __future__ import annotations

import html

import pytest
from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import ApiToken, Game, GameMaster, OutboxMessage, Player
from vpsleuth.services import accounts
from vpsleuth.services.errors import Invalid

BAD = ["Evil\r\nBcc: all@example.org", "Evil\nSubject: hi", "Tab\there", "Nul\x00byte",
       "Bell\x07", "Del\x7f", "Next\x85line", "Line\u2028separator"]
MESSAGE = "must be one line of text, without line breaks or control characters"


def count(model) -> int:
    db.session.rollback()
    return db.session.scalar(select(func.count()).select_from(model))


def page(response) -> str:
    return html.unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("name", BAD)
def test_a_game_name_with_a_control_character_is_refused_on_the_form(gm_web, gm_later, name):
    response = gm_web.post("/gm/games/new", {
        "name": name, "first_deadline": gm_later(), "timezone": "Europe/Berlin",
        "schedule_kind": "weekly", "rounds": "12", "first_bonus_round": "5",
        "points_right": "1", "points_wrong": "-2", "language": "en"})
    assert response.status_code == 400
    assert f"a game's name {MESSAGE}" in page(response)
    assert count(Game) == 0


@pytest.mark.parametrize("name", BAD)
def test_a_player_name_with_a_control_character_is_refused_on_the_invite_form(
        gm_web, gm_setup_game, name):
    response = gm_web.post(f"/gm/games/{gm_setup_game.id}/players",
                           {"name": name, "email": "eve@example.org", "language": "en"})
    assert response.status_code == 400
    assert f"a player's name {MESSAGE}" in page(response)
    assert count(Player) == 2
    assert count(OutboxMessage) == 2  # the two invitations of the fixture, no third


@pytest.mark.parametrize("email", ["eve@example.org\x00", "eve\x01@example.org",
                                   "eve@exam\x7fple.org"])
def test_an_address_with_a_control_character_is_refused(gm_web, gm_setup_game, email):
    g = f"/gm/games/{gm_setup_game.id}"
    response = gm_web.post(f"{g}/players", {"name": "Eve", "email": email, "language": "en"})
    assert response.status_code == 400
    assert "is not an email address" in page(response)
    player = gm_setup_game.players[0]
    response = gm_web.post(f"{g}/players/{player.id}/email", {"email": email})
    assert response.status_code == 400
    assert "is not an email address" in page(response)
    assert count(Player) == 2


@pytest.mark.parametrize("label", BAD)
def test_a_gm_token_label_with_a_control_character_is_refused(gm_web, label):
    response = gm_web.post("/gm/tokens", {"label": label})
    assert response.status_code == 400
    assert f"a token's label {MESSAGE}" in page(response)
    assert count(ApiToken) == 0


def test_a_player_token_label_with_a_line_break_is_refused_in_german_too(
        gm_web_as, gm_running_game):
    ada = gm_web_as("ada@example.org")
    player = gm_running_game.players[0]
    response = ada.post("/settings", {"action": "token", "player_id": str(player.id),
                                      "label": "bot\r\nX-Evil: 1"})
    assert response.status_code == 400
    assert f"a token's label {MESSAGE}" in page(response)
    ada.get("/lang/de")
    response = ada.post("/settings", {"action": "token", "player_id": str(player.id),
                                      "label": "bot\nzwei"})
    assert response.status_code == 400
    assert "Die Bezeichnung eines Tokens muss eine Zeile Text sein" in page(response)
    assert count(ApiToken) == 0


def test_a_game_master_name_with_a_line_break_is_refused(app):
    with pytest.raises(Invalid, match=f"a game master's name {MESSAGE}"):
        accounts.create_game_master("gina@example.org", "Gina\r\nBcc: all@example.org")
    assert count(GameMaster) == 0


def test_names_with_accents_and_inner_spaces_are_fine(gm_web, gm_setup_game):
    response = gm_web.post(f"/gm/games/{gm_setup_game.id}/players",
                           {"name": "Zoë  de la Fuente", "email": "zoe@example.org",
                            "language": "en"})
    assert response.status_code == 302
    assert count(Player) == 3
