"""A refused pasted turn on the web: each bad line and its hint in the page's language."""

from __future__ import annotations

import re

import pytest

from vpsleuth.extensions import db
from vpsleuth.services import games

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
BASIS = re.compile(r'name="basis" value="([^"]+)"')
SAID = {
    "de": ("&#39;H&#39; ist kein Ort; Tipps gehen an A-G oder X (niemand)",
           "TIPP &lt;A-G oder X&gt;"),
    "es": ("&#39;H&#39; no es un lugar; las apuestas van a A-G o a X (nadie)",
           "APUESTA &lt;A-G o X&gt;"),
}


@pytest.mark.parametrize("lang", ["de", "es"])
def test_a_pasted_turn_with_a_bad_line_is_explained_in_the_players_language(moonstone, ada,
                                                                            lang):
    games.find_player(moonstone, "Ada").language = lang
    db.session.commit()
    page = ada.get(f"/games/{moonstone.id}/turn").get_data(as_text=True)
    data = {"csrf_token": CSRF.search(page).group(1), "basis": BASIS.search(page).group(1),
            "round": str(moonstone.open_round.number), "action": "text",
            "text": "PISTA A RD1\nPISTA H BP2"}
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    message, hint = SAID[lang]
    assert message in page and hint in page
    assert "is not a location" not in page and "TIP &lt;A-G or X&gt;" not in page


@pytest.mark.parametrize("lang", ["de", "es"])
def test_a_bad_turn_the_gm_enters_is_explained_in_the_gms_page_language(gm_web, gm_running_game,
                                                                         lang):
    gm_web.get(f"/lang/{lang}")
    ada = gm_running_game.players[0]
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/turn",
                           {"player": str(ada.id), "round": "1", "text": "TIP A RD1\nTIP H YO3"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    message, hint = SAID[lang]
    assert message in page and hint in page
    assert "is not a location" not in page
