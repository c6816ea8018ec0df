"""A seat handed on through the API: the GM's call, its answer, its refusals, and the old
holder's token stops at once."""

from __future__ import annotations

from vpsleuth.extensions import db
from vpsleuth.models import SeatChange

from .helpers import error_of


def test_the_gm_hands_a_seat_on_and_the_old_token_stops(api, cast):
    url = f"/games/{cast.game.id}/players/{cast.ben.id}/replace"
    assert api.get(f"/games/{cast.game.id}", cast["ben"]).status_code == 200
    response = api.post(url, cast["gm"], {"name": "Dora", "email": "dora@example.org",
                                          "language": "de"})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["from_round"] == 1 and body["old_name"] == "Ben"
    assert body["old_email"] == "Ben@Example.org"
    assert body["player"]["name"] == "Dora" and body["player"]["email"] == "dora@example.org"
    assert body["player"]["language"] == "de" and body["player"]["id"] == cast.ben.id
    assert api.get(f"/games/{cast.game.id}", cast["ben"]).status_code == 401
    assert db.session.query(SeatChange).count() == 1


def test_a_taken_address_a_players_token_and_a_foreign_gm_are_refused(api, cast):
    url = f"/games/{cast.game.id}/players/{cast.ben.id}/replace"
    taken = api.post(url, cast["gm"], {"name": "Dora", "email": "ada@example.org"})
    assert taken.status_code == 400
    assert "ada@example.org already plays in 'Riddle' as 'Ada'" in error_of(taken)["message"]
    assert api.post(url, cast["ada"], {"name": "Dora", "email": "d@example.org"}
                    ).status_code == 403
    assert api.post(url, cast["other_gm"], {"name": "Dora", "email": "d@example.org"}
                    ).status_code == 404
    missing = api.post(url, cast["gm"], {"name": "Dora"})
    assert missing.status_code == 400
    db.session.rollback()
    assert db.session.query(SeatChange).count() == 0
