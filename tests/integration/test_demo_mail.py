"""``vpsleuth demo`` writes no mail to anybody: its players live at demo.invalid."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import Game, OutboxMessage, utcnow
from vpsleuth.services import resolution


def outbox_count() -> int:
    return db.session.scalar(select(func.count(OutboxMessage.id)))


def test_a_whole_demo_prints_its_reports_and_leaves_the_outbox_empty(runner):
    result = runner.invoke(args=["demo", "--players", "6", "--rounds", "12", "--seed", "3",
                                 "--all-reports"])
    assert result.exit_code == 0, result.output
    assert "Round report -- Round 1 of 12" in result.output
    assert "The game has ended." in result.output
    game = db.session.scalar(select(Game))
    assert game.state == "finished"
    assert {p.email.rsplit("@", 1)[1] for p in game.players} == {"demo.invalid"}
    assert outbox_count() == 0


def test_a_demo_left_running_queues_no_mail_when_its_next_round_resolves(runner):
    result = runner.invoke(args=["demo", "--players", "3", "--rounds", "2", "--seed", "1"])
    assert result.exit_code == 0, result.output
    game = db.session.scalar(select(Game))
    assert game.state == "running" and outbox_count() == 0
    resolution.resolve_round(game, now=utcnow() + timedelta(days=8))
    assert game.round(3).state == "resolved" and outbox_count() == 0
