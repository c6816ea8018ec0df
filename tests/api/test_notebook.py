"""The notebook through the API: a player token reads and writes its own, nobody else gets in."""

from __future__ import annotations

import pytest

from vpsleuth.services import notebook as notebooks

from .helpers import error_of


@pytest.fixture
def url(cast) -> str:
    return f"/games/{cast.game.id}/notebook"


def test_a_new_notebook_is_empty(api, cast, url):
    assert api.get(url, cast["ada"]).get_json() == {
        "game_id": cast.game.id, "player_id": cast.ada.id, "marks": {}, "notes": "",
        "updated_at": None}


def test_marks_and_notes_are_written_and_read_back_and_what_is_left_out_stays(api, cast, url):
    marks = {"RD1": {"A": "yes", "X": "no"}, "YO3": {"G": "maybe"}}
    saved = api.put(url, cast["ada"], {"marks": marks, "notes": "E: two blue"}).get_json()
    assert saved["marks"] == marks and saved["notes"] == "E: two blue" and saved["updated_at"]
    api.put(url, cast["ada"], {"notes": "E: two blue, one opal"})
    book = api.get(url, cast["ada"]).get_json()
    assert book["marks"] == marks and book["notes"] == "E: two blue, one opal"
    assert notebooks.read(cast.ada).mark("RD1", "X") == "no"


@pytest.mark.parametrize(("body", "field"), [
    ({"marks": []}, "marks"), ({"marks": {"RD4": {"A": "yes"}}}, "marks"),
    ({"marks": {"RD1": "A"}}, "marks.RD1"), ({"marks": {"RD1": {"H": "yes"}}}, "marks.RD1"),
    ({"marks": {"RD1": {"A": "sure"}}}, "marks.RD1.A"), ({"notes": 5}, "notes"),
    ({"notes": None}, "notes"),
    ({"notes": "x" * 20_001}, "notes"), ({"colour": "red"}, "colour"), ({}, ""),
])
def test_a_bad_body_is_refused_naming_its_field_and_changes_nothing(api, cast, url, body, field):
    api.put(url, cast["ada"], {"notes": "kept"})
    response = api.put(url, cast["ada"], body)
    assert response.status_code == 400 and error_of(response)["details"] == {"field": field}
    assert api.get(url, cast["ada"]).get_json()["notes"] == "kept"


@pytest.mark.parametrize("who", ["gm", "other_gm", "ben", "cy"])
def test_nobody_but_the_player_reads_or_writes_it_not_even_the_game_master(api, cast, url, who):
    api.put(url, cast["ada"], {"notes": "mine"})
    for response in (api.get(url, cast[who]), api.put(url, cast[who], {"notes": "theirs"})):
        if who == "ben":  # Ben reaches a notebook of his own, never Ada's
            assert response.status_code == 200 and response.get_json()["player_id"] == \
                cast.ben.id
        else:
            assert response.status_code == 404
            assert error_of(response)["code"] == "not_found"
    assert notebooks.read(cast.ada).notes == "mine"
    assert api.get(url, None).status_code == 401
