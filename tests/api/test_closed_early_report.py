"""The API's report says when a round was resolved before its deadline, and why."""

from __future__ import annotations

from datetime import datetime

from vpsleuth.services import resolution


def test_the_report_carries_the_deadline_and_why_the_round_closed_early(api, cast):
    resolution.resolve_round(cast.game, number=1, actor="gail@example.org")
    report = api.get(f"/games/{cast.game.id}/rounds/1/report", cast["ada"]).get_json()
    assert report["closed_early"] == "game_master"
    deadline = datetime.fromisoformat(report["deadline"])
    assert deadline == cast.game.round(1).deadline
    assert datetime.fromisoformat(report["resolved_at"]) < deadline
