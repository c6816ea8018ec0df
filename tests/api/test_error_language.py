"""API error messages in the caller's language; the machine-readable code never changes."""

from __future__ import annotations

import pytest

from vpsleuth.extensions import db

from .helpers import error_of

ENGLISH = "send an API token"
SAID = {"de": "schick ein API-Token", "es": "envía un token de la API"}


@pytest.mark.parametrize(("header", "lang"), [
    ("de", "de"), ("es-ES,es;q=0.9,en;q=0.5", "es"), ("fr-FR, de;q=0.5", "de"),
    ("fr", "en"), (None, "en"),
])
def test_without_a_token_the_message_follows_accept_language(api, header, lang):
    headers = {"Accept-Language": header} if header else {}
    response = api.get("/games", headers=headers)
    error = error_of(response)
    assert (response.status_code, error["code"]) == (401, "unauthorized")
    assert error["message"].startswith(SAID.get(lang, ENGLISH))


def test_a_refused_turn_is_explained_in_the_players_language(api, cast):
    cast.ada.language = "es"
    db.session.commit()
    url = f"/games/{cast.game.id}/turn"
    english = error_of(api.post(url, cast["ben"], {"text": "PISTA H RD1"}))
    spanish = error_of(api.post(url, cast["ada"], {"text": "PISTA H RD1"}))
    assert english["code"] == spanish["code"] == "turn_refused"
    assert english["message"].startswith("your turn was not applied")
    assert spanish["message"].startswith("tu turno no se ha aplicado")
    [line] = spanish["details"]
    assert (line["line"], line["text"]) == (1, "PISTA H RD1")
    assert line["message"] == "'H' no es un lugar; las apuestas van a A-G o a X (nadie)"
    assert line["hint"].startswith("APUESTA <A-G o X> <gema>")
    assert english["details"][0]["message"] == "'H' is not a location; tips go to A-G or X (nobody)"


def test_the_token_owners_setting_wins_over_accept_language(api, cast):
    cast.ben.language = "de"
    db.session.commit()
    response = api.get("/games/99999", cast["ben"], headers={"Accept-Language": "es"})
    error = error_of(response)
    assert (response.status_code, error["code"]) == (404, "not_found")
    assert error["message"] == "keine Partie 99999 unter deinen Partien"
    english = error_of(api.get("/games/99999", cast["ada"], headers={"Accept-Language": "es"}))
    assert english["message"] == "no game 99999 among your games"


def test_a_bad_field_keeps_its_name_and_says_the_rest_in_the_callers_language(api, cast):
    cast.ada.language = "de"
    db.session.commit()
    url = f"/games/{cast.game.id}/turn"
    english = error_of(api.post(url, cast["ben"], {"text": "TIP A RD1", "round": 0}))
    german = error_of(api.post(url, cast["ada"], {"text": "TIP A RD1", "round": 0}))
    assert english["code"] == german["code"] == "invalid"
    assert english["details"] == german["details"] == {"field": "round"}
    assert english["message"].startswith("round: must be")
    assert german["message"].startswith("round: muss")
