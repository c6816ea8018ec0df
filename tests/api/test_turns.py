"""A player's own turn through the API: structured or text, all or nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, TurnVersion, utcnow
from vpsleuth.services import accounts, games, gm, resolution

from .helpers import error_of, make_game


@pytest.fixture
def turn_url(cast) -> str:
    return f"/games/{cast.game.id}/turn"


def versions(player) -> list[TurnVersion]:
    return db.session.scalars(select(TurnVersion).where(TurnVersion.player_id == player.id)
                              .order_by(TurnVersion.id)).all()


def test_before_any_turn_the_standing_turn_is_empty(api, cast, turn_url):
    turn = api.get(turn_url, cast["ada"]).get_json()
    assert (turn["round"], turn["question"], turn["tips"]) == (1, None, {})
    assert turn["player"] == {"id": cast.ada.id, "name": "Ada"}
    assert turn["text"] == "QUESTION NONE\n"


def test_a_structured_turn_is_applied_and_shown_structured_and_as_text(api, cast, turn_url):
    response = api.put(turn_url, cast["ada"], {
        "question": {"placeholder": "E", "attributes": ["B", "O"]},
        "tips": {"RD1": "A", "YO3": "X", "BP2": "A"}})
    assert response.status_code == 200
    turn = response.get_json()
    assert turn["question"] == {"placeholder": "E", "attributes": ["B", "O"]}
    assert turn["tips"] == {"RD1": "A", "BP2": "A", "YO3": "X"}
    assert turn["text"] == "QUESTION E blue opal\nTIP A RD1, BP2\nTIP X YO3\n"
    assert (turn["version"]["channel"], turn["version"]["status"]) == ("api", "accepted")
    assert api.get(turn_url, cast["ada"]).get_json()["tips"] == turn["tips"]


def test_a_text_turn_goes_through_the_turn_language_in_either_language(api, cast, turn_url):
    response = api.post(turn_url, cast["ben"], {"text": "FRAGE G Einer\nTIPP C Diamant rot I"})
    assert response.status_code == 200
    turn = response.get_json()
    assert turn["question"] == {"placeholder": "G", "attributes": ["1"]}
    assert turn["tips"] == {"RD1": "C"}
    stored = versions(cast.ben)[-1]
    assert (stored.text, stored.channel, stored.entered_by) == (
        "FRAGE G Einer\nTIPP C Diamant rot I", "api", "Ben@Example.org")


def test_a_later_turn_replaces_the_question_and_tips_gem_by_gem(api, cast, turn_url):
    api.put(turn_url, cast["ada"], {"question": {"placeholder": "E", "attributes": ["B"]},
                                    "tips": {"RD1": "A", "BP2": "B"}})
    turn = api.put(turn_url, cast["ada"], {"tips": {"RD1": "C", "GO3": "D"}}).get_json()
    assert turn["tips"] == {"RD1": "C", "BP2": "B", "GO3": "D"}
    assert turn["question"] == {"placeholder": "E", "attributes": ["B"]}
    turn = api.put(turn_url, cast["ada"], {"question": None, "drop": ["BP2"]}).get_json()
    assert turn["question"] is None and turn["tips"] == {"RD1": "C", "GO3": "D"}
    turn = api.put(turn_url, cast["ada"], {"drop_all": True, "tips": {"YD1": "X"}}).get_json()
    assert turn["tips"] == {"YD1": "X"}


def test_repeat_brings_back_last_rounds_tips(api, cast, turn_url):
    api.put(turn_url, cast["ada"], {"tips": {"RD1": "A", "BP2": "B"}})
    resolution.resolve_round(cast.game, number=1)
    turn = api.put(turn_url, cast["ada"], {"repeat": True, "tips": {"BP2": "C"}}).get_json()
    assert turn["round"] == 2
    assert turn["tips"] == {"RD1": "A", "BP2": "C"}


def test_a_refused_turn_is_422_with_every_bad_line_and_changes_nothing(api, cast, turn_url):
    api.put(turn_url, cast["ada"], {"text": "QUESTION E blue opal\nTIP A RD1"})
    response = api.put(turn_url, cast["ada"], {"text": "TIP B BP2\nTIP H RD2\nQUESTION X red"})
    assert response.status_code == 422
    error = error_of(response)
    assert error["code"] == "turn_refused"
    assert [d["line"] for d in error["details"]] == [2, 3]
    assert "'H' is not a location" in error["details"][0]["message"]
    assert error["details"][0]["text"] == "TIP H RD2"
    assert error["details"][1]["hint"].startswith("QUESTION <A-G>")
    turn = api.get(turn_url, cast["ada"]).get_json()
    assert turn["tips"] == {"RD1": "A"}
    assert turn["question"] == {"placeholder": "E", "attributes": ["B", "O"]}
    assert [v.status for v in versions(cast.ada)] == ["accepted", "refused"]


def test_a_structured_question_that_breaks_a_rule_is_refused_by_the_rules(api, cast, turn_url):
    response = api.put(turn_url, cast["ada"], {
        "question": {"placeholder": "A", "attributes": ["R", "B"]}, "tips": {"RD1": "A"}})
    assert response.status_code == 422
    [line] = error_of(response)["details"]
    assert line["text"] == "QUESTION A red blue"
    assert "two values of one colour" in line["message"]
    assert api.get(turn_url, cast["ada"]).get_json()["tips"] == {}


def test_a_late_turn_is_409_naming_the_round(api, cast, turn_url):
    cast.game.open_round.deadline = utcnow() - timedelta(minutes=1)
    db.session.commit()
    response = api.put(turn_url, cast["ada"], {"tips": {"RD1": "A"}})
    assert response.status_code == 409
    error = error_of(response)
    assert error["code"] == "round_closed"
    assert "deadline of round 1 passed" in error["message"]
    assert "round 2 will open" in error["message"]
    assert [v.status for v in versions(cast.ada)] == ["refused"]


def test_a_turn_meant_for_another_round_is_409_naming_the_open_one(api, cast, turn_url):
    response = api.put(turn_url, cast["ada"], {"text": "TIP A RD1", "round": 2})
    assert response.status_code == 409
    assert "round 1 is open" in error_of(response)["message"]
    assert api.put(turn_url, cast["ada"], {"tips": {"RD1": "A"}, "round": 1}).status_code == 200


def test_turns_wait_while_the_game_is_paused(api, cast, turn_url):
    gm.pause_game(cast.game, actor="gail@example.org")
    response = api.put(turn_url, cast["ada"], {"tips": {"RD1": "A"}})
    assert response.status_code == 409
    assert "paused" in error_of(response)["message"]


def test_a_game_in_setup_has_no_turn_to_show_or_send(api, cast):
    setup = make_game("Later", cast.game.game_master_id, [("Ada", "ada@example.org")],
                      start=False)
    _, raw = accounts.issue_api_token(player=setup.players[0])
    assert api.get(f"/games/{setup.id}/turn", raw).status_code == 409
    response = api.put(f"/games/{setup.id}/turn", raw, {"text": "TIP A RD1"})
    assert response.status_code == 409
    assert "has not started" in error_of(response)["message"]


def test_an_accepted_turn_is_confirmed_by_mail(api, cast, turn_url):
    api.put(turn_url, cast["ada"], {"tips": {"RD1": "A"}})
    kinds = db.session.scalars(select(OutboxMessage.kind).where(
        OutboxMessage.to_addr == "ada@example.org")).all()
    assert "confirmation" in kinds


BAD_BODIES = [
    ({"question": {"placeholder": "X", "attributes": ["R"]}}, "question.placeholder"),
    ({"question": {"placeholder": "e", "attributes": ["R"]}}, "question.placeholder"),
    ({"question": {"placeholder": "E", "attributes": []}}, "question.attributes"),
    ({"question": {"placeholder": "E", "attributes": ["R", "D", "1"]}}, "question.attributes"),
    ({"question": {"placeholder": "E", "attributes": ["red"]}}, "question.attributes[0]"),
    ({"question": {"placeholder": "E"}}, "question.attributes"),
    ({"question": "E blue"}, "question"),
    ({"question": {"placeholder": "E", "attributes": ["R"], "x": 1}}, "question.x"),
    ({"tips": {"RD4": "A"}}, "tips.RD4"),
    ({"tips": {"RD1": "H"}}, "tips.RD1"),
    ({"tips": {"RD1": "A\nDROP ALL"}}, "tips.RD1"),
    ({"tips": ["RD1", "A"]}, "tips"),
    ({"drop": "RD1"}, "drop"),
    ({"drop": ["rd1"]}, "drop[0]"),
    ({"drop_all": "yes"}, "drop_all"),
    ({"drop_all": None, "tips": {"RD1": "A"}}, "drop_all"),
    ({"round": None, "tips": {"RD1": "A"}}, "round"),
    ({"repeat": 1}, "repeat"),
    ({"round": "1", "tips": {"RD1": "A"}}, "round"),
    ({"round": 0, "tips": {"RD1": "A"}}, "round"),
    ({"text": ""}, "text"),
    ({"text": "  \n "}, "text"),
    ({"text": 5}, "text"),
    ({"text": "TIP A RD1", "tips": {"RD2": "A"}}, "tips"),
    ({"colour": "red"}, "colour"),
    ({}, ""),
    ({"drop_all": False, "repeat": False}, ""),
]


def test_a_malformed_turn_is_400_naming_the_field_and_stores_nothing(api, cast, turn_url):
    for body, field in BAD_BODIES:
        response = api.put(turn_url, cast["ada"], body)
        assert response.status_code == 400, body
        error = error_of(response)
        assert error["code"] == "invalid"
        assert error["details"] == {"field": field}, body
        assert error["message"].startswith(f"{field}: " if field else ""), body
    assert versions(cast.ada) == []


def test_a_body_that_is_not_a_json_object_is_400(api, cast, turn_url):
    for data in ["TIP A RD1", "{", "[1, 2]", "null", '"text"', "[" * 100000, "\xff"]:
        response = api.call("PUT", turn_url, cast["ada"], data=data)
        assert response.status_code == 400, data
        assert error_of(response)["code"] == "invalid"
        assert "JSON" in error_of(response)["message"]
    assert versions(cast.ada) == []


def test_a_body_over_256_kib_is_413_before_it_is_read(api, cast, turn_url):
    response = api.put(turn_url, cast["ada"], {"text": "# padding\n" * 30000})
    assert response.status_code == 413
    assert error_of(response)["code"] == "too_large"
    assert "too large" in error_of(response)["message"]
    assert versions(cast.ada) == []


def test_a_turn_text_with_nul_bytes_is_kept_verbatim_and_refused_line_by_line(
        api, cast, turn_url):
    response = api.put(turn_url, cast["ada"], {"text": "TIP A RD1\nTIP\x00 B BP2"})
    assert response.status_code == 422
    assert versions(cast.ada)[-1].text == "TIP A RD1\nTIP\x00 B BP2"


def test_a_withdrawn_player_keeps_the_turn_they_sent_but_cannot_change_it(api, cast, turn_url):
    api.put(turn_url, cast["ada"], {"tips": {"RD1": "A"}})
    games.withdraw_player(cast.ada)
    response = api.put(turn_url, cast["ada"], {"tips": {"RD2": "A"}})
    assert response.status_code == 409
    assert api.get(turn_url, cast["ada"]).get_json()["tips"] == {"RD1": "A"}
