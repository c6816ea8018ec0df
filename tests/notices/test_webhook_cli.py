"""``vpsleuth game webhook``: set (also from stdin), show masked, test, remove."""

from __future__ import annotations

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import GameWebhook, Notice
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games


def test_the_command_sets_shows_tests_and_removes_a_webhook(runner):
    game = games.create_game("Beryl", weekly("2026-12-06 20:00", "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org")
    url = "http://127.0.0.1:9/hooks/secret-token-Kp3"
    done = runner.invoke(args=["game", "webhook", "Beryl", "--url", "-", "--format", "mattermost",
                               "--test"], input=url + "\n")
    assert done.exit_code == 0, done.output
    assert "secret-token" not in done.output and "http://127.0.0.1:9/…-Kp3" in done.output
    assert "mattermost" in done.output and "nothing sent yet" in done.output
    db.session.rollback()
    assert db.session.scalars(select(GameWebhook.url)).all() == [url]
    assert db.session.scalars(select(Notice.kind)).all() == ["test"]
    refused = runner.invoke(args=["game", "webhook", "Beryl", "--url", "https://10.0.0.5/x"])
    assert refused.exit_code == 1 and "an address of a private network" in refused.output
    gone = runner.invoke(args=["game", "webhook", "Beryl", "--remove"])
    assert gone.exit_code == 0 and "Removed the chat webhook of 'Beryl'" in gone.output
    db.session.rollback()
    assert db.session.scalars(select(GameWebhook)).all() == []
    assert db.session.scalars(select(Notice.status)).all() == ["dropped"]
