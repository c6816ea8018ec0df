"""A game's overview, and who may open the players' pages at all."""

from __future__ import annotations

import re

import pytest

from vpsleuth.extensions import db
from vpsleuth.services import accounts, games, gm, resolution, turns


def test_the_overview_shows_the_open_round_its_deadline_and_the_links(moonstone, ada):
    page = ada.get(f"/games/{moonstone.id}").get_data(as_text=True)
    deadline = moonstone.open_round.deadline.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert f'<time class="js-local-time" datetime="{deadline}">' in page
    assert re.search(r'class="time-left" data-deadline="[^"]+">(2|3) days', page)
    assert "Round 1 of 12" in page and "You have not sent a turn for this round yet." in page
    for path in ("turn", "sheet", "standings", "rounds"):
        assert f'href="/games/{moonstone.id}/{path}"' in page
    assert re.search(rf'href="http://localhost/games/{moonstone.id}/calendar.ics\?token=[^"]+"',
                     page)
    assert re.search(rf'href="http://localhost/games/{moonstone.id}/feed.atom\?token=[^"]+"', page)
    assert moonstone.commitment in page
    # Ada has signed in; Ben and Cleo have not yet (test_invited_players.py)
    assert re.search(r'<dd class="players">Ada, Ben <span[^>]*>\(invited\)</span>, '
                     r'Cleo <span[^>]*>\(invited\)</span></dd>', page)


def test_the_overview_says_what_turn_is_in_and_lists_the_reports(moonstone, ada):
    turns.submit_turn(games.find_player(moonstone, "Ada"), "QUESTION E blue opal\nTIP A RD1",
                      channel="email")
    page = ada.get(f"/games/{moonstone.id}").get_data(as_text=True)
    assert "Your turn is in: How many blue opals does E hold? · 1 tip" in page
    resolution.resolve_round(moonstone)
    page = ada.get(f"/games/{moonstone.id}").get_data(as_text=True)
    assert f'href="/games/{moonstone.id}/rounds/1"' in page and "Round 2 of 12" in page


def test_the_overview_in_german_shows_the_deadline_in_german(moonstone, ada):
    ada.get("/lang/de")
    page = ada.get(f"/games/{moonstone.id}").get_data(as_text=True)
    assert "Abgabetermin" in page and "Runde 1 von 12" in page
    assert re.search(r"(MEZ|MESZ)</time>", page) and "noch " in page


PAGES = ["", "/turn", "/sheet", "/rounds", "/rounds/1", "/rounds/1.txt", "/standings",
         "/verify", "/feed.atom", "/calendar.ics"]


def test_a_player_cannot_open_any_page_of_a_game_they_do_not_play_in(moonstone, make_game,
                                                                     signed_in):
    other = make_game("Other game", players={"Dora": "dora@example.org"})
    resolution.resolve_round(moonstone)
    dora = signed_in("dora@example.org")
    for path in PAGES:
        response = dora.get(f"/games/{moonstone.id}{path}")
        assert response.status_code == 404, path
        assert "Moonstone" not in response.get_data(as_text=True), path
    assert dora.get(f"/games/{other.id}").status_code == 200


def test_a_signed_out_visitor_is_sent_to_sign_in_and_feeds_need_a_token(moonstone, client):
    response = client.get(f"/games/{moonstone.id}/turn")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/signin?next=/games/")
    assert client.get(f"/games/{moonstone.id}/feed.atom").status_code == 403
    assert client.get(f"/games/{moonstone.id}/calendar.ics").status_code == 403


def test_the_game_master_reads_the_public_pages_but_has_no_turn_or_sheet(make_game, signed_in):
    gm = accounts.create_game_master("gm@example.org", "Gina")
    game = make_game()
    game.game_master_id = gm.id
    db.session.commit()
    resolution.resolve_round(game)
    client = signed_in("gm@example.org")
    for path in ("", "/standings", "/rounds/1"):
        assert client.get(f"/games/{game.id}{path}").status_code == 200, path
    for path in ("/turn", "/sheet"):
        assert client.get(f"/games/{game.id}{path}").status_code == 404, path


@pytest.mark.parametrize("state", ["setup", "paused"])
def test_a_game_not_running_says_so_on_the_overview_and_the_form(make_game, ada, state):
    game = make_game("Quiet", start=state == "paused")
    if state == "paused":
        gm.pause_game(game, actor="gm")
    overview = ada.get(f"/games/{game.id}").get_data(as_text=True)
    form = ada.get(f"/games/{game.id}/turn").get_data(as_text=True)
    expected = {"setup": "The game has not started yet",
                "paused": "The game master has paused the game"}[state]
    assert expected in overview and expected in form
    assert 'id="save-turn" disabled' in form
