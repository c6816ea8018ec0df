"""Reading games, rounds, reports and standings; creating a game."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, Game
from vpsleuth.rules import GEM_BY_CODE, Distribution
from vpsleuth.rules.schedule import to_local
from vpsleuth.services import resolution, turns

from .helpers import error_of


def test_the_game_list_shows_each_game_with_the_callers_roles_and_open_round(api, cast):
    listed = api.get("/games", cast["gm"]).get_json()["games"]
    assert [(g["name"], g["roles"], g["state"]) for g in listed] == [
        ("Riddle", ["game_master"], "running")]
    assert listed[0]["open_round"]["number"] == 1
    assert [g["name"] for g in api.get("/games", cast["cy"]).get_json()["games"]] == ["Other"]


def test_a_player_sees_the_public_facts_of_their_game_without_addresses(api, cast):
    game = api.get(f"/games/{cast.game.id}", cast["ada"]).get_json()
    assert game["players"] == [{"id": cast.ada.id, "name": "Ada", "active": True},
                               {"id": cast.ben.id, "name": "Ben", "active": True}]
    assert game["roles"] == ["player"]
    assert game["commitment"] == cast.game.commitment and len(game["commitment"]) == 64
    assert game["rules"] == {"rounds": 12, "first_bonus_round": 5, "bonuses": [3, 2, 1],
                             "points_right": 1, "points_wrong": -2, "early_resolution": False,
                             "after_early": "calendar", "deduction_aid": False,
                             "missed_turn_rule": "none"}
    assert game["schedule"]["kind"] == "weekly" and game["timezone"] == "Europe/Berlin"
    assert game["open_round"]["state"] == "open"
    assert "example.org" not in str(game)


def test_the_game_master_also_sees_the_players_addresses(api, cast):
    game = api.get(f"/games/{cast.game.id}", cast["gm"]).get_json()
    assert [p["email"] for p in game["players"]] == ["ada@example.org", "Ben@Example.org"]
    assert game["roles"] == ["game_master"]


def test_rounds_list_their_deadlines_and_states(api, cast):
    resolution.resolve_round(cast.game, number=1)
    rounds = api.get(f"/games/{cast.game.id}/rounds", cast["ada"]).get_json()["rounds"]
    assert [(r["number"], r["state"]) for r in rounds] == [(1, "resolved"), (2, "open")]
    assert rounds[0]["resolved_at"] is not None and rounds[1]["resolved_at"] is None


def test_a_resolved_rounds_report_is_served_in_the_asked_language(api, cast):
    turns.submit_turn(cast.ada, "QUESTION E blue opal\nTIP A RD1", channel="cli")
    resolution.resolve_round(cast.game, number=1)
    report = api.get(f"/games/{cast.game.id}/rounds/1/report", cast["ben"]).get_json()
    assert report["round"] == 1 and report["final"] is False
    assert [q["text"] for q in report["questions"]] == ["How many blue opals does E hold?"]
    assert {r["player"] for r in report["rows"]} == {"Ada", "Ben"}
    assert report["distribution"] is None and report["salt"] is None
    german = api.get(f"/games/{cast.game.id}/rounds/1/report?lang=de", cast["ben"]).get_json()
    assert german["questions"][0]["text"] == "Wie viele blaue Opale hat E?"
    spanish = api.get(f"/games/{cast.game.id}/rounds/1/report?lang=es", cast["ben"]).get_json()
    assert spanish["questions"][0]["text"] == "¿Cuántos ópalos azules tiene E?"


def test_a_game_master_creates_a_spanish_game_through_the_api(api, cast):
    response = api.post("/games", cast["gm"], {"name": "Invierno", "language": "es",
                                               "schedule": WEEKLY})
    assert response.status_code == 201 and response.get_json()["language"] == "es"


def test_the_report_of_a_round_not_yet_resolved_is_404(api, cast):
    response = api.get(f"/games/{cast.game.id}/rounds/1/report", cast["ada"])
    assert response.status_code == 404
    assert "resolved" in error_of(response)["message"]


def test_an_unknown_report_language_is_400(api, cast):
    response = api.get(f"/games/{cast.game.id}/rounds/1/report?lang=fr", cast["ada"])
    assert response.status_code == 400
    assert error_of(response)["details"] == {"field": "lang"}


def test_standings_are_empty_before_the_first_resolution_and_ranked_after(api, cast):
    url = f"/games/{cast.game.id}/standings"
    assert api.get(url, cast["ada"]).get_json() == {
        "game_id": cast.game.id, "after_round": None, "final": False, "rows": []}
    dealt = Distribution.from_canonical(cast.game.secret.distribution)
    location = dealt[GEM_BY_CODE["RD1"]]
    turns.submit_turn(cast.ada, f"TIP {location} RD1", channel="cli")
    resolution.resolve_round(cast.game, number=1)
    standings = api.get(url, cast["ben"]).get_json()
    assert standings["after_round"] == 1
    assert standings["rows"] == [{"player": "Ada", "total": 1, "rank": 1, "points": 1},
                                 {"player": "Ben", "total": 0, "rank": 2, "points": 0}]


WEEKLY = {"timezone": "Europe/Berlin", "first": "2999-01-10 20:00", "every_days": 14}


def test_a_game_master_creates_a_game_with_house_rules_and_a_weekly_schedule(api, cast):
    response = api.post("/games", cast["gm"], {
        "name": "Winter", "language": "de", "schedule": WEEKLY,
        "rules": {"rounds": 8, "bonuses": [5, 3], "early_resolution": True},
        "reminder_hours": [48, 2]})
    assert response.status_code == 201
    game = response.get_json()
    assert response.headers["Location"].endswith(f"/api/v1/games/{game['id']}")
    assert (game["name"], game["state"], game["language"]) == ("Winter", "setup", "de")
    assert game["rules"]["rounds"] == 8 and game["rules"]["bonuses"] == [5, 3]
    assert game["rules"]["early_resolution"] is True
    assert game["reminder_hours"] == [48, 2]
    assert game["schedule"]["every_days"] == 14 and game["roles"] == ["game_master"]
    stored = db.session.get(Game, game["id"])
    assert stored.game_master_id == cast.game.game_master_id
    actors = db.session.scalars(select(AuditEntry.actor).where(
        AuditEntry.game_id == stored.id)).all()
    assert actors == ["gail@example.org"]


def test_a_game_can_have_a_list_of_deadlines_local_or_with_an_offset(api, cast):
    response = api.post("/games", cast["gm"], {"name": "Listed", "schedule": {
        "timezone": "Europe/Berlin", "deadlines": ["2999-01-10 20:00",
                                                   "2999-01-24T20:00:00+01:00"]}})
    assert response.status_code == 201
    schedule = response.get_json()["schedule"]
    assert schedule["kind"] == "explicit"
    local = [to_local(datetime.fromisoformat(d), "Europe/Berlin")
             for d in schedule["deadlines"]]
    assert [(d.day, d.hour) for d in local] == [(10, 20), (24, 20)]


BAD_GAMES = [
    ({"schedule": WEEKLY}, "name", "required"),
    ({"name": "X", "schedule": WEEKLY, "colour": 1}, "colour", "unknown field"),
    ({"name": "X\n", "schedule": WEEKLY}, "name", "control characters"),
    ({"name": "X", "schedule": "weekly"}, "schedule", "must be an object"),
    ({"name": "X", "schedule": {"first": "2999-01-10 20:00"}}, "schedule.timezone", "required"),
    ({"name": "X", "schedule": {**WEEKLY, "deadlines": ["2999-01-10 20:00"]}}, "schedule",
     "not both"),
    ({"name": "X", "schedule": {**WEEKLY, "every_days": 30}}, "schedule.every_days", "1 to 28"),
    ({"name": "X", "schedule": {**WEEKLY, "first": "9999-12-31 23:00"}}, "schedule.first",
     "years"),
    ({"name": "X", "schedule": {**WEEKLY, "first": "2999-01-10T20:00+01:00"}},
     "schedule.first", "without an offset"),
    ({"name": "X", "schedule": {"timezone": "UTC", "deadlines": []}}, "schedule.deadlines",
     "1 to 52"),
    ({"name": "X", "schedule": WEEKLY, "rules": {"rounds": 0}}, "rules.rounds", "1 to 52"),
    ({"name": "X", "schedule": WEEKLY, "rules": {"bonuses": [3, 2, 1000]}},
     "rules.bonuses[2]", "0 to 99"),
    ({"name": "X", "schedule": WEEKLY, "rules": {"points_wrong": True}}, "rules.points_wrong",
     "whole number"),
    ({"name": "X", "schedule": WEEKLY, "rules": {"speed": 2}}, "rules.speed", "unknown"),
    ({"name": "X", "schedule": WEEKLY, "language": "fr"}, "language", "en, de, es"),
    ({"name": "X", "schedule": WEEKLY, "language": None}, "language", "en, de, es"),
    ({"name": "X", "schedule": WEEKLY, "rules": None}, "rules", "must be an object"),
    ({"name": "X", "schedule": WEEKLY, "reminder_hours": None}, "reminder_hours", "list"),
    ({"name": "X", "schedule": WEEKLY, "reminder_hours": [0]}, "reminder_hours[0]", "1 to 336"),
]


def test_a_malformed_game_is_400_naming_the_field(api, cast):
    for body, field, words in BAD_GAMES:
        response = api.post("/games", cast["gm"], body)
        assert response.status_code == 400, body
        error = error_of(response)
        assert error["details"] == {"field": field}, body
        assert words in error["message"], body
    assert db.session.scalar(select(Game).where(Game.name == "X")) is None


BROKEN_RULES = [
    ({"name": "Riddle", "schedule": WEEKLY}, "exists already"),
    ({"name": "   ", "schedule": WEEKLY}, "1 to 120 characters"),
    ({"name": "Tz", "schedule": {**WEEKLY, "timezone": "Europe/Berln"}}, "Europe/Berlin"),
    ({"name": "Tz", "schedule": {**WEEKLY, "first": "next sunday"}}, "YYYY-MM-DD HH:MM"),
    ({"name": "Tz", "schedule": {"timezone": "UTC", "deadlines": ["2999-02-01 20:00",
                                                                  "2999-01-01 20:00"]}},
     "is not after"),
    ({"name": "Bonus", "schedule": WEEKLY, "rules": {"bonuses": [1, 2]}}, "must not grow"),
]


def test_a_game_that_breaks_a_rule_is_400_with_the_services_reason(api, cast):
    for body, words in BROKEN_RULES:
        response = api.post("/games", cast["gm"], body)
        assert response.status_code == 400, body
        assert error_of(response)["code"] == "invalid"
        assert words in error_of(response)["message"], body
    assert db.session.scalar(select(Game.id).where(Game.name.in_(["Tz", "Bonus"]))) is None
