"""The game master's calls: players, the clock, resolution, the audit log, the secret."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, OutboxMessage, TurnVersion, utcnow
from vpsleuth.services import accounts, auth, turns

from .helpers import error_of, make_game


def actions(game) -> list[str]:
    return db.session.scalars(select(AuditEntry.action).where(AuditEntry.game_id == game.id)
                              .order_by(AuditEntry.id)).all()


@pytest.fixture
def setup_game(cast):
    """Gail's second game, still in setup, with nobody in it."""
    return make_game("Spring", cast.game.game_master_id, [], start=False)


def test_inviting_a_player_adds_them_and_queues_an_invitation(api, cast, setup_game):
    response = api.post(f"/games/{setup_game.id}/players", cast["gm"],
                        {"name": "Dee", "email": "dee@example.org", "language": "de"})
    assert response.status_code == 201
    player = response.get_json()
    assert (player["name"], player["email"], player["language"]) == ("Dee", "dee@example.org",
                                                                     "de")
    assert [p.name for p in setup_game.players] == ["Dee"]
    mails = db.session.scalars(select(OutboxMessage.kind).where(
        OutboxMessage.to_addr == "dee@example.org")).all()
    assert mails == ["invitation"]


BAD_INVITATIONS = [
    ({"name": "Ada", "email": "new@example.org"}, "already plays"),
    ({"name": "Dee", "email": "ADA@example.org"}, "already plays"),
    ({"name": "Dee", "email": "dee at example"}, "not an email address"),
    ({"name": "Dee", "email": "dee\x00@example.org"}, "control characters"),
    ({"name": "Dee", "email": "d" * 250 + "@example.org"}, "at most 254"),
    ({"name": "Dee"}, "required"),
    ({"name": "Dee", "email": "dee@example.org", "language": "fr"}, "en, de"),
]


def test_an_invitation_with_bad_details_is_400_and_adds_nobody(api, cast):
    for body, words in BAD_INVITATIONS:
        response = api.post(f"/games/{cast.game.id}/players", cast["gm"], body)
        assert response.status_code == 400, body
        assert words in error_of(response)["message"], body
    assert [p.name for p in cast.game.players] == ["Ada", "Ben"]


def test_an_invitation_does_not_count_against_the_players_own_sign_in_limit(app, api, cast):
    app.config["SIGN_IN_PER_HOUR"] = 1  # one link of the player's own an hour
    response = api.post(f"/games/{cast.game.id}/players", cast["gm"],
                        {"name": "Dee", "email": "dee@example.org"})
    assert response.status_code == 201, response.get_json()
    db.session.expire_all()
    assert [p.name for p in cast.game.players] == ["Ada", "Ben", "Dee"]
    assert auth.request_sign_in("dee@example.org", "192.0.2.1") is not None
    assert auth.request_sign_in("dee@example.org", "192.0.2.1") is None


def test_withdrawing_a_player_once_works_and_twice_is_409(api, cast):
    url = f"/games/{cast.game.id}/players/{cast.ben.id}/withdraw"
    response = api.post(url, cast["gm"])
    assert response.status_code == 200 and response.get_json()["active"] is False
    assert response.get_json()["withdrawn_at"] is not None
    again = api.post(url, cast["gm"])
    assert again.status_code == 409
    assert "already withdrawn" in error_of(again)["message"]


def test_a_player_of_another_game_is_404_for_this_game(api, cast):
    response = api.post(f"/games/{cast.game.id}/players/{cast.cy.id}/withdraw", cast["gm"])
    assert response.status_code == 404
    assert cast.cy.active


def test_the_game_master_changes_a_players_address(api, cast):
    url = f"/games/{cast.game.id}/players/{cast.ben.id}"
    response = api.patch(url, cast["gm"], {"email": "benedict@example.org"})
    assert response.status_code == 200 and response.get_json()["email"] == "benedict@example.org"
    clash = api.patch(url, cast["gm"], {"email": "ada@example.org"})
    assert clash.status_code == 400 and "already plays" in error_of(clash)["message"]
    assert api.patch(url, cast["gm"], {"name": "B"}).status_code == 400
    assert cast.ben.email == "benedict@example.org"


def test_starting_a_game_deals_and_opens_round_one_once(api, cast, setup_game):
    url = f"/games/{setup_game.id}/start"
    empty = api.post(url, cast["gm"])
    assert empty.status_code == 409 and "no players" in error_of(empty)["message"]
    api.post(f"/games/{setup_game.id}/players", cast["gm"],
             {"name": "Dee", "email": "dee@example.org"})
    response = api.post(url, cast["gm"])
    assert response.status_code == 200
    game = response.get_json()
    assert game["state"] == "running" and game["open_round"]["number"] == 1
    assert len(game["commitment"]) == 64
    assert api.post(url, cast["gm"]).status_code == 409
    assert api.post(url, cast["gm"], {"seed": 1}).status_code == 400


def test_the_status_board_counts_turns_without_showing_them(api, cast):
    turns.submit_turn(cast.ada, "QUESTION E blue opal\nTIP A RD1\nTIP B BP2", channel="email")
    status = api.get(f"/games/{cast.game.id}/status", cast["gm"]).get_json()
    assert status["round"]["number"] == 1 and status["submitted"] == 1
    ada, ben = status["players"]
    assert (ada["submitted"], ada["has_question"], ada["tips"], ada["channel"]) == (
        True, True, 2, "email")
    assert (ben["submitted"], ben["tips"], ben["last_at"]) == (False, 0, None)
    assert "RD1" not in str(status) and "blue" not in str(status)


def test_extending_the_deadline_moves_it_and_tells_the_players(api, cast):
    url = f"/games/{cast.game.id}/extend"
    later = (cast.game.open_round.deadline + timedelta(days=2)).isoformat()
    response = api.post(url, cast["gm"], {"deadline": later})
    assert response.status_code == 200
    assert response.get_json()["round"]["deadline"] == later
    moved = db.session.scalars(select(OutboxMessage.kind).where(
        OutboxMessage.kind == "deadline_moved")).all()
    assert len(moved) == 2
    earlier = api.post(url, cast["gm"], {"deadline": utcnow().isoformat()})
    assert earlier.status_code == 400 and "later than the current one" in \
        error_of(earlier)["message"]


def test_a_deadline_without_an_offset_or_not_a_time_is_400(api, cast):
    before = cast.game.open_round.deadline
    for deadline, words in [("2999-01-01T20:00:00", "UTC offset"), ("next friday", "ISO 8601"),
                            ("9999-12-31T23:59:59-12:00", "years"),
                            (1234567890, "must be a string")]:
        response = api.post(f"/games/{cast.game.id}/extend", cast["gm"],
                            {"deadline": deadline})
        assert response.status_code == 400, deadline
        assert words in error_of(response)["message"], deadline
    assert cast.game.open_round.deadline == before


def test_pausing_and_resuming_stop_and_restart_the_clock(api, cast):
    url = f"/games/{cast.game.id}"
    assert api.post(f"{url}/resume", cast["gm"]).status_code == 409
    paused = api.post(f"{url}/pause", cast["gm"])
    assert paused.status_code == 200 and paused.get_json()["state"] == "paused"
    assert api.post(f"{url}/pause", cast["gm"]).status_code == 409
    resumed = api.post(f"{url}/resume", cast["gm"])
    assert resumed.status_code == 200 and resumed.get_json()["state"] == "running"
    assert actions(cast.game)[-2:] == ["pause_game", "resume_game"]


def test_resolving_a_round_twice_resolves_it_once(api, cast):
    url = f"/games/{cast.game.id}/resolve"
    first = api.post(url, cast["gm"], {"round": 1})
    assert first.status_code == 200
    assert first.get_json()["resolved_now"] is True
    assert first.get_json()["game"]["open_round"]["number"] == 2
    assert first.get_json()["report"].endswith(f"/games/{cast.game.id}/rounds/1/report")
    again = api.post(url, cast["gm"], {"round": 1}).get_json()
    assert again["resolved_now"] is False and again["game"]["open_round"]["number"] == 2
    assert actions(cast.game).count("resolve_round") == 1
    assert api.get(first.get_json()["report"].removeprefix("/api/v1"),
                   cast["ada"]).status_code == 200


def test_resolving_a_round_that_has_not_opened_is_404_and_needs_a_round_number(api, cast):
    url = f"/games/{cast.game.id}/resolve"
    response = api.post(url, cast["gm"], {"round": 5})
    assert response.status_code == 404 and "round 5" in error_of(response)["message"]
    missing = api.post(url, cast["gm"])
    assert missing.status_code == 400 and error_of(missing)["details"] == {"field": "round"}
    assert cast.game.open_round.number == 1


def test_resolving_a_game_in_setup_is_409(api, cast, setup_game):
    response = api.post(f"/games/{setup_game.id}/resolve", cast["gm"], {"round": 1})
    assert response.status_code == 409 and "not started" in error_of(response)["message"]


def test_the_game_master_enters_a_turn_for_a_player_audited(api, cast):
    url = f"/games/{cast.game.id}/players/{cast.ben.id}/turn"
    response = api.post(url, cast["gm"], {"tips": {"RD1": "A"}})
    assert response.status_code == 200
    turn = response.get_json()
    assert turn["player"]["name"] == "Ben" and turn["tips"] == {"RD1": "A"}
    assert (turn["version"]["channel"], turn["version"]["entered_by"]) == (
        "gm", "gail@example.org")
    assert actions(cast.game)[-1] == "enter_turn"
    refused = api.post(url, cast["gm"], {"text": "TIP Q RD1"})
    assert refused.status_code == 422 and error_of(refused)["details"][0]["line"] == 1
    wrong_round = api.post(url, cast["gm"], {"text": "TIP A RD2", "round": 3})
    assert wrong_round.status_code == 409
    versions = db.session.scalars(select(TurnVersion.status).where(
        TurnVersion.player_id == cast.ben.id).order_by(TurnVersion.id)).all()
    assert versions == ["accepted", "refused", "refused"]


def test_the_audit_log_lists_actions_with_their_details(api, cast):
    api.post(f"/games/{cast.game.id}/pause", cast["gm"])
    log = api.get(f"/games/{cast.game.id}/audit", cast["gm"]).get_json()["entries"]
    assert [e["action"] for e in log] == ["create_game", "add_player", "add_player",
                                          "start_game", "pause_game"]
    assert log[1]["detail"] == {"player": "Ada", "email": "ada@example.org"}
    assert log[-1]["actor"] == "gail@example.org"


def test_the_distribution_needs_an_explicit_confirmation(api, cast):
    url = f"/games/{cast.game.id}/distribution"
    for query in ("", "?confirm=no"):
        response = api.get(url + query, cast["gm"])
        assert response.status_code == 400
        assert "confirm=yes" in error_of(response)["message"]
        assert cast.game.secret.distribution not in response.get_data(as_text=True)
    assert "view_distribution" not in actions(cast.game)
    shown = api.get(url + "?confirm=yes", cast["gm"]).get_json()
    assert shown["distribution"] == cast.game.secret.distribution
    assert shown["salt"] == cast.game.secret.salt
    assert actions(cast.game)[-1] == "view_distribution"


def test_the_distribution_of_a_game_not_yet_dealt_is_409(api, cast, setup_game):
    response = api.get(f"/games/{setup_game.id}/distribution?confirm=yes", cast["gm"])
    assert response.status_code == 409


def test_a_game_master_cannot_run_another_game_masters_game(api, cast):
    _, raw = accounts.issue_api_token(game_master=accounts.create_game_master(
        "third@example.org", "Third"))
    assert api.post(f"/games/{cast.game.id}/pause", raw).status_code == 404
    assert cast.game.state == "running"
