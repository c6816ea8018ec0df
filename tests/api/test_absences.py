"""Absences by API (issue 20): a player's own seat, the GM for the game's players; bad
input gets a 400 that names the field or the rule, and nothing is stored. The missed-turn
house rule is set when the game is created and read back with the other rules."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Absence, AuditEntry, Game, utcnow
from vpsleuth.services.absence import local_day

from .helpers import error_of, next_week_local


def stored() -> list[Absence]:
    db.session.expire_all()
    return list(db.session.scalars(select(Absence).order_by(Absence.id)))


def day(player, ahead: int) -> str:
    return (local_day(player, utcnow()) + timedelta(days=ahead)).isoformat()


def test_a_player_announces_lists_and_cancels_their_own_absence(api, cast):
    g = cast.game.id
    made = api.post(f"/games/{g}/absences", cast["ada"],
                    {"starts": day(cast.ada, 2), "ends": day(cast.ada, 9), "note": "sailing"})
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    assert (body["starts"], body["ends"], body["note"], body["channel"]) == (
        day(cast.ada, 2), day(cast.ada, 9), "sailing", "api")
    assert body["start_moved"] is False
    mine = api.get(f"/games/{g}/absences", cast["ada"]).get_json()["absences"]
    assert [a["id"] for a in mine] == [body["id"]]
    assert api.get(f"/games/{g}/absences", cast["ben"]).get_json()["absences"] == []
    # Ben may not cancel Ada's; Cy (another game) does not even see the game.
    assert api.post(f"/games/{g}/absences/{body['id']}/cancel", cast["ben"]).status_code == 404
    assert api.get(f"/games/{g}/absences", cast["cy"]).status_code == 404
    done = api.post(f"/games/{g}/absences/{body['id']}/cancel", cast["ada"])
    assert done.status_code == 200 and done.get_json()["cancelled"] is True
    assert stored()[0].cancelled_at is not None


def test_a_start_in_the_past_counts_from_today(api, cast):
    made = api.post(f"/games/{cast.game.id}/absences", cast["ada"],
                    {"starts": day(cast.ada, -3), "ends": day(cast.ada, 3)}).get_json()
    assert made["starts"] == day(cast.ada, 0) and made["start_moved"] is True


def test_the_game_master_enters_one_for_a_player_sees_every_note_and_is_audited(api, cast):
    g = cast.game.id
    api.post(f"/games/{g}/absences", cast["ben"],
             {"starts": day(cast.ben, 1), "ends": day(cast.ben, 2), "note": "a funeral"})
    missing = api.post(f"/games/{g}/absences", cast["gm"],
                       {"starts": day(cast.ada, 1), "ends": day(cast.ada, 4)})
    assert missing.status_code == 400 and error_of(missing)["details"]["field"] == "player_id"
    made = api.post(f"/games/{g}/absences", cast["gm"],
                    {"starts": day(cast.ada, 1), "ends": day(cast.ada, 4),
                     "player_id": cast.ada.id, "note": "phoned in"})
    assert made.status_code == 201 and made.get_json()["channel"] == "gm"
    notes = [a["note"] for a in api.get(f"/games/{g}/absences", cast["gm"]).get_json()[
        "absences"]]
    assert sorted(notes) == ["a funeral", "phoned in"]
    foreign = api.post(f"/games/{g}/absences", cast["other_gm"],
                       {"starts": day(cast.ada, 1), "ends": day(cast.ada, 4),
                        "player_id": cast.ada.id})
    assert foreign.status_code == 404
    actions = db.session.scalars(select(AuditEntry.action).where(
        AuditEntry.game_id == cast.game.id)).all()
    assert actions.count("absence_entered") == 1
    assert api.post(f"/games/{g}/absences/{made.get_json()['id']}/cancel",
                    cast["gm"]).status_code == 200
    assert "absence_cancelled" in db.session.scalars(select(AuditEntry.action)).all()


def test_bad_absences_are_refused_with_a_clear_message_and_nothing_stored(api, cast):
    g, ada = cast.game.id, cast.ada
    cases = [
        ({"starts": day(ada, 5), "ends": day(ada, 2)}, "cannot end"),
        ({"starts": day(ada, -9), "ends": day(ada, -2)}, "in the past"),
        ({"starts": day(ada, 1), "ends": day(ada, 200)}, "at most 120 days"),
        ({"starts": "20.12.2026", "ends": day(ada, 2)}, "must be a date such as 2026-12-20"),
        ({"starts": day(ada, 1)}, "this field is required"),
        ({"starts": day(ada, 1), "ends": day(ada, 2), "note": "x" * 301}, "at most 300"),
    ]
    for body, said in cases:
        answer = api.post(f"/games/{g}/absences", cast["ada"], body)
        assert answer.status_code == 400, body
        assert said in error_of(answer)["message"], (body, error_of(answer))
    ada.language = "de"  # a token's messages are in its player's language
    db.session.commit()
    german = api.post(f"/games/{g}/absences", cast["ada"],
                      {"starts": day(ada, 5), "ends": day(ada, 2)})
    assert "kann nicht enden" in error_of(german)["message"]
    assert stored() == []


def test_the_missed_turn_rule_is_a_house_rule_of_the_new_game(api, cast):
    body = {"name": "Repeating", "schedule": {"timezone": "Europe/Berlin",
                                              "first": next_week_local()},
            "rules": {"missed_turn_rule": "repeat-when-absent"}}
    made = api.post("/games", cast["gm"], body)
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["rules"]["missed_turn_rule"] == "repeat-when-absent"
    assert db.session.scalar(select(Game.missed_turn_rule).where(Game.name == "Repeating")) \
        == "repeat-when-absent"
    bad = api.post("/games", cast["gm"], {**body, "name": "Bad",
                                          "rules": {"missed_turn_rule": "always"}},
                   validate=False)
    assert bad.status_code == 400
    assert error_of(bad)["details"]["field"] == "rules.missed_turn_rule"
