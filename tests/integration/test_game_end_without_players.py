"""A game with no active player left ends after that round (RULES.md 6).

It ends as any game ends: the round is resolved, the final report reveals the
distribution and the salt, the players of that round get it by mail, and no
further round opens. Nobody wins: there is no active player to win.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, Round
from vpsleuth.rules import verify_commitment
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, reports, resolution, stories, turns
from vpsleuth.services.errors import WrongState

NOBODY_WINS = {"en": "The game has ended. No player was left in the game, so nobody wins.",
               "de": "Das Spiel ist beendet. Es war kein Spieler mehr im Spiel, also gewinnt "
                     "niemand."}


@pytest.fixture
def game(app, now):
    """Round 2 of a game of Ada (English) and Ben (German); Ada tipped in round 1."""
    game = games.create_game("Empty", weekly("2026-12-06 20:00", "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org")
    games.add_player(game, "Ben", "ben@example.org", language="de")
    games.start_game(game, now=now, seed=4)
    turns.submit_turn(games.find_player(game, "Ada"), "TIP A RD1, B BP2", channel="cli", now=now)
    resolution.resolve_round(game, now=now)
    return game


def withdraw_everyone(game, now) -> None:
    for player in game.players:
        games.withdraw_player(player, now=now)


def mails(kind: str) -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind)
                                   .order_by(OutboxMessage.id)))


def test_the_round_in_which_the_last_player_is_withdrawn_is_the_last(game, now):
    withdraw_everyone(game, now + timedelta(hours=1))
    deadline = game.open_round.deadline
    [resolved] = resolution.resolve_due(now=deadline)  # the scheduler's way, at the deadline
    assert resolved.number == 2
    assert game.state == "finished" and game.finished_at == deadline
    assert game.open_round is None
    assert db.session.scalar(select(func.count(Round.id)).where(Round.game_id == game.id)) == 2
    assert resolution.resolve_due(now=deadline + timedelta(days=7)) == []


def test_the_final_report_reveals_the_distribution_and_names_no_winner(game, now):
    withdraw_everyone(game, now + timedelta(hours=1))
    resolution.resolve_round(game, now=game.open_round.deadline)
    built = reports.build_reports(game, 2, {"en", "de"})
    for lang, report in built.items():
        assert report.final and report.round == 2
        assert (report.rows, report.winners) == ([], [])
        assert verify_commitment(report.distribution, report.salt, game.commitment)
        assert set(report.history) == {"Ada", "Ben"}  # round 1 stays in the standings
        text = reports.render_text(report, "Europe/Berlin", lang)
        assert NOBODY_WINS[lang] in text
        assert f"printf '%s' '{report.salt}:{report.distribution}' | sha256sum" in text
    assert reports.build_reports(game, 1, {"en"})["en"].distribution is None


def test_the_players_of_that_round_get_the_final_report_and_no_round_opens(game, now):
    before = len(mails("round_opened"))
    withdraw_everyone(game, now + timedelta(hours=1))
    resolution.resolve_round(game, now=game.open_round.deadline)
    assert mails("final_report") == []  # queued with its story, by the job that tells it
    assert stories.tell_queued() == [game.id]
    finals = {m.to_addr: m for m in mails("final_report")}
    assert set(finals) == {"ada@example.org", "ben@example.org"}
    assert NOBODY_WINS["en"] in finals["ada@example.org"].body_text
    assert NOBODY_WINS["de"] in finals["ben@example.org"].body_text
    assert game.secret.salt in finals["ben@example.org"].body_html
    assert "Schlussbericht" in finals["ben@example.org"].subject
    assert len(mails("round_opened")) == before


def test_withdrawn_in_round_one_the_game_ends_after_round_one(app, now):
    game = games.create_game("Short", weekly("2026-12-06 20:00", "Europe/Berlin"))
    ada = games.add_player(game, "Ada", "ada@example.org")
    games.start_game(game, now=now, seed=5)
    turns.submit_turn(ada, "QUESTION A R\nTIP A RD1", channel="cli", now=now)
    games.withdraw_player(ada, now=now + timedelta(minutes=5))
    resolution.resolve_round(game, now=game.open_round.deadline)
    assert game.state == "finished"
    report = reports.build_report(game)
    assert report.final and report.round == 1 and report.winners == []
    with pytest.raises(WrongState, match="withdrawn"):
        turns.submit_turn(ada, "TIP A RD1", channel="cli", now=now)


def test_a_player_still_active_keeps_the_game_going(game, now):
    games.withdraw_player(games.find_player(game, "Ben"), now=now + timedelta(hours=1))
    resolution.resolve_round(game, now=game.open_round.deadline)
    assert game.state == "running" and game.open_round.number == 3
    assert mails("final_report") == []
