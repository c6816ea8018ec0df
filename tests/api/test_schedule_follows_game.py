"""The API: a deadline moved either way (never into the past), and the rule after an early close."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, OutboxMessage, utcnow

from .helpers import error_of

WEEKLY = {"timezone": "Europe/Berlin", "first": "2999-01-10 20:00"}


def test_a_game_master_brings_the_deadline_forward_and_the_players_are_told(api, cast):
    url = f"/games/{cast.game.id}/deadline"
    sooner = (utcnow() + timedelta(days=2)).replace(microsecond=0)
    response = api.post(url, cast["gm"], {"deadline": sooner.isoformat()})
    assert response.status_code == 200
    assert response.get_json()["round"]["deadline"] == sooner.isoformat()
    mails = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "deadline_moved")).all()
    assert len(mails) == 2 and all("brought the deadline forward" in m.body_text for m in mails)
    later = sooner + timedelta(days=9)
    assert api.post(url, cast["gm"], {"deadline": later.isoformat()}).status_code == 200
    actions = db.session.scalars(select(AuditEntry.action).where(
        AuditEntry.game_id == cast.game.id).order_by(AuditEntry.id)).all()
    assert actions[-2:] == ["advance_deadline", "extend_deadline"]


def test_a_deadline_in_the_past_is_refused_and_nothing_moves(api, cast):
    before = cast.game.open_round.deadline
    past = (utcnow() - timedelta(minutes=5)).isoformat()
    response = api.post(f"/games/{cast.game.id}/deadline", cast["gm"], {"deadline": past})
    assert response.status_code == 400
    assert "must be in the future" in error_of(response)["message"]
    players = api.post(f"/games/{cast.game.id}/deadline", cast["ada"],
                       {"deadline": (utcnow() + timedelta(days=1)).isoformat()})
    assert players.status_code == 403
    db.session.expire_all()
    assert cast.game.open_round.deadline == before


def test_a_game_is_created_with_its_rule_after_an_early_close(api, cast):
    response = api.post("/games", cast["gm"], {
        "name": "Fresh", "schedule": WEEKLY,
        "rules": {"early_resolution": True, "after_early": "fresh"}})
    assert response.status_code == 201
    assert response.get_json()["rules"]["after_early"] == "fresh"
    plain = api.post("/games", cast["gm"], {"name": "Plain", "schedule": WEEKLY})
    assert plain.get_json()["rules"]["after_early"] == "calendar"


def test_an_unknown_rule_after_an_early_close_is_a_400_naming_the_field(api, cast):
    response = api.post("/games", cast["gm"], {
        "name": "Odd", "schedule": WEEKLY, "rules": {"after_early": "soon"}})
    assert response.status_code == 400
    assert error_of(response)["details"] == {"field": "rules.after_early"}
