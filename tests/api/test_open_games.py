"""Open games through the API: the game master's listing, requests and decisions."""

from __future__ import annotations

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import JoinRequest, LoginToken, OutboxMessage
from vpsleuth.services import lobby
from vpsleuth.services.access import viewer_for

from .helpers import error_of


def listed(api, cast, limit=4) -> dict:
    response = api.put(f"/games/{cast.game.id}/listing", cast["gm"],
                       {"open": True, "max_players": limit})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_gm_lists_the_game_and_sets_its_limit(api, cast):
    assert listed(api, cast) == {"game_id": cast.game.id, "open": True, "max_players": 4,
                                 "players": 2, "full": False}
    unlisted = api.put(f"/games/{cast.game.id}/listing", cast["gm"], {"open": False})
    assert unlisted.get_json()["open"] is False and unlisted.get_json()["max_players"] is None
    for body in ({"open": "yes"}, {"open": True, "max_players": 0}, {"max_players": 3},
                 {"open": True, "max_players": 1001}):
        response = api.put(f"/games/{cast.game.id}/listing", cast["gm"], body)
        assert response.status_code == 400, body


def test_the_gm_reads_requests_accepts_one_and_declines_another(api, cast):
    listed(api, cast)
    cy = lobby.ask_to_join(viewer_for("cy@example.org"), cast.game.id, "Cy", "Hello!",
                           language="de")
    otto = lobby.ask_to_join(viewer_for("otto@example.org"), cast.game.id, "Otto")
    seen = api.get(f"/games/{cast.game.id}/join-requests", cast["gm"]).get_json()
    assert [(r["name"], r["email"], r["state"]) for r in seen["requests"]] == [
        ("Otto", "otto@example.org", "pending"), ("Cy", "cy@example.org", "pending")]
    assert seen["requests"][1]["message"] == "Hello!"

    accepted = api.post(f"/games/{cast.game.id}/join-requests/{cy.id}/accept", cast["gm"],
                        {"name": "Cyrus"})
    assert accepted.status_code == 201
    player = accepted.get_json()
    assert (player["name"], player["email"], player["language"]) == (
        "Cyrus", "cy@example.org", "de")
    token = db.session.scalars(select(LoginToken).where(
        LoginToken.player_id == player["id"])).one()
    assert token.purpose == "invitation"  # the normal invitation, for this player only
    again = api.post(f"/games/{cast.game.id}/join-requests/{cy.id}/accept", cast["gm"])
    assert again.status_code == 409 and error_of(again)["code"] == "wrong_state"

    declined = api.post(f"/games/{cast.game.id}/join-requests/{otto.id}/decline", cast["gm"])
    assert declined.status_code == 200 and declined.get_json()["state"] == "declined"
    kinds = db.session.scalars(select(OutboxMessage.kind).where(
        OutboxMessage.to_addr == "otto@example.org")).all()
    assert kinds == ["join_declined"]


def test_a_full_game_refuses_to_accept_and_requests_of_other_games_are_not_found(api, cast):
    listed(api, cast)
    cy = lobby.ask_to_join(viewer_for("cy@example.org"), cast.game.id, "Cy")
    listed(api, cast, limit=2)
    full = api.post(f"/games/{cast.game.id}/join-requests/{cy.id}/accept", cast["gm"])
    assert full.status_code == 409 and "full" in error_of(full)["message"]
    other = api.post(f"/games/{cast.other.id}/join-requests/{cy.id}/decline",
                     cast["other_gm"])
    assert other.status_code == 404
    assert db.session.get(JoinRequest, cy.id).state == "pending"


def test_only_the_games_gm_sees_its_requests(api, cast):
    listed(api, cast)
    lobby.ask_to_join(viewer_for("cy@example.org"), cast.game.id, "Cy")
    path = f"/games/{cast.game.id}/join-requests"
    assert api.get(path, cast["ada"]).status_code == 403
    assert api.get(path, cast["other_gm"]).status_code == 404
    assert api.get(path, cast["cy"]).status_code == 404
    assert api.get(path).status_code == 401
