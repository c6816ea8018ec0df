"""The notebook on the information sheet: saved by the page's script or a plain form, private."""

from __future__ import annotations

import re

import pytest
from conftest import CSRF

from vpsleuth.services import accounts, games, resolution
from vpsleuth.services import notebook as notebooks

JSON = {"Accept": "application/json"}


@pytest.fixture
def lapis(make_game, gm_account):
    """Moonstone's players in a game run by the GM account (gm@example.org)."""
    game = make_game("Lapis", start=False)
    game.game_master_id = gm_account.id
    games.start_game(game, seed=3)
    return game


def sheet(client, game) -> str:
    return client.get(f"/games/{game.id}/sheet").get_data(as_text=True)


def post(client, game, accept_json: bool = False, **fields):
    token = CSRF.search(client.get("/signin").get_data(as_text=True)).group(1)
    return client.post(f"/games/{game.id}/notebook", data={"csrf_token": token, **fields},
                       headers=JSON if accept_json else {})


def test_the_sheet_has_a_grid_of_36_gems_by_eight_places_and_the_notes(lapis, ada):
    page = sheet(ada, lapis)
    assert page.count('name="cycle"') == 288
    assert 'id="cell-RD1-A"' in page and 'id="cell-YO3-X"' in page
    assert 'aria-label="RD1 A: no mark"' in page
    assert '<textarea id="notes" name="notes"' in page and "Private: only you" in page


def test_without_script_a_tap_is_a_form_post_that_cycles_the_cell_and_keeps_the_notes(lapis,
                                                                                     ada):
    response = post(ada, lapis, cycle="GO2.X", notes="X: green opal pair?")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/games/{lapis.id}/sheet#cell-GO2-X")
    post(ada, lapis, cycle="GO2.X", notes="X: green opal pair?")
    page = sheet(ada, lapis)
    assert 'aria-label="GO2 X: no"' in page and ">X: green opal pair?</textarea>" in page
    assert notebooks.read(games.find_player(lapis, "Ada")).marks == {"GO2": {"X": "no"}}


def test_the_script_saves_grid_and_notes_at_once_and_gets_json(lapis, ada):
    grid = "y" + "." * 286 + "m"
    response = post(ada, lapis, accept_json=True, grid=grid, notes="E has 2 blue")
    assert response.status_code == 200 and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",
                                                        response.get_json()["saved_at"])
    book = notebooks.read(games.find_player(lapis, "Ada"))
    assert book.marks == {"RD1": {"A": "yes"}, "YO3": {"X": "maybe"}}
    assert book.notes == "E has 2 blue"
    assert 'aria-label="YO3 X: maybe"' in sheet(ada, lapis)


def test_bad_input_is_refused_and_keeps_what_was_saved(lapis, ada):
    post(ada, lapis, notes="kept")
    response = post(ada, lapis, accept_json=True, grid="q" * 288)
    assert response.status_code == 400 and "288 characters" in response.get_json()["error"]
    assert post(ada, lapis, cycle="RD1.Q").status_code == 400
    assert post(ada, lapis).status_code == 400  # nothing to save
    assert post(ada, lapis, notes="x" * 20_001).status_code == 400
    token_less = ada.post(f"/games/{lapis.id}/notebook", data={"notes": "forged"})
    assert token_less.status_code == 400
    assert notebooks.read(games.find_player(lapis, "Ada")).notes == "kept"


def test_nobody_else_gets_in_another_player_the_game_master_or_a_stranger(lapis, ada,
                                                                          signed_in):
    post(ada, lapis, notes="Ada's secret thoughts", cycle="RD1.A")
    accounts.create_game_master("eve@example.org", "Eve")  # a GM of no game of hers
    for email in ("gm@example.org", "eve@example.org", "zed@example.org"):
        other = signed_in(email)
        assert other.get(f"/games/{lapis.id}/sheet").status_code == 404
        assert post(other, lapis, notes="overwritten").status_code == 404
        assert post(other, lapis, accept_json=True, grid="." * 288).status_code == 404
    ben = signed_in("ben@example.org")
    assert "Ada&#39;s secret thoughts" not in sheet(ben, lapis)
    assert 'aria-label="RD1 A: no mark"' in sheet(ben, lapis)
    post(ben, lapis, notes="Ben's own")
    ada_book = notebooks.read(games.find_player(lapis, "Ada"))
    assert ada_book.notes == "Ada's secret thoughts" and ada_book.marks == {"RD1": {"A": "yes"}}


def test_a_signed_out_visitor_is_sent_to_sign_in(lapis, client):
    response = client.post(f"/games/{lapis.id}/notebook", data={"notes": "x"})
    assert response.status_code in (302, 400)
    assert notebooks.read(games.find_player(lapis, "Ada")).notes == ""


def test_the_notebook_stays_readable_and_writable_after_the_game_ends(lapis, ada):
    post(ada, lapis, notes="RD1 at A, surely", cycle="RD1.A")
    while lapis.state != "finished":
        resolution.resolve_round(lapis)
    page = sheet(ada, lapis)
    assert ">RD1 at A, surely</textarea>" in page and 'aria-label="RD1 A: yes"' in page
    assert post(ada, lapis, accept_json=True, notes="it was").status_code == 200


def test_the_notebook_speaks_german(lapis, ada):
    ada.get("/lang/de")
    post(ada, lapis, cycle="BP2.C")
    page = sheet(ada, lapis)
    assert "Dein Notizbuch" in page and 'aria-label="BP2 C: ja"' in page
    assert 'data-maybe="vielleicht"' in page
