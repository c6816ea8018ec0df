"""Computer players: added by the GM, their turns through the turn service, no mail."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import GameSecret, OutboxMessage, Player, TurnVersion
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import bots, games, resolution, turns
from vpsleuth.services.errors import Invalid


def new_game(name: str = "Beryl", rounds: int = 12):
    game = games.create_game(name, weekly("2026-12-06 20:00", "Europe/Berlin"),
                             Ruleset(rounds=rounds))
    games.add_player(game, "Ada", "ada@example.org")
    return game


def bot_versions(player: Player) -> list[TurnVersion]:
    return list(db.session.scalars(select(TurnVersion).where(
        TurnVersion.player_id == player.id).order_by(TurnVersion.id)))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_bot_sends_an_accepted_turn_by_channel_bot_when_a_round_opens(app, now, level):
    game = new_game()
    bot = bots.add_bot(game, "Robo", level)
    games.start_game(game, now=now, seed=3)
    (version,) = bot_versions(bot)
    assert (version.channel, version.status, version.entered_by) == ("bot", "accepted",
                                                                     f"bot:{level}")
    assert version.text.startswith("QUESTION ")
    turns.submit_turn(game.players[0], "QUESTION A red", channel="web", now=now)
    resolution.resolve_round(game, now=now)
    second = bot_versions(bot)
    assert len(second) == 2 and second[1].status == "accepted"
    assert turns.standing_turn(game.open_round, bot).question is not None


def test_a_bot_added_during_the_game_plays_the_open_round_at_once(app, now):
    game = new_game()
    games.start_game(game, now=now, seed=3)
    bot = bots.add_bot(game, "Late", "hard", now=now)
    assert [v.round_id for v in bot_versions(bot)] == [game.open_round.id]


def test_bots_get_no_mail_of_any_kind(app, now):
    game = new_game()
    bot = bots.add_bot(game, "Robo", "medium")
    games.start_game(game, now=now, seed=3)
    resolution.resolve_round(game, now=now)
    sent_to = set(db.session.scalars(select(OutboxMessage.to_addr)))
    assert "ada@example.org" in sent_to  # the human gets the round's mails
    assert bot.email not in sent_to and bot.email.endswith("@bots.invalid")


def test_an_unknown_level_is_refused(app):
    with pytest.raises(Invalid):
        bots.add_bot(new_game(), "Robo", "genius")


def test_bots_play_without_the_distribution(app, now, monkeypatch):
    """The driver hands the brain the public record only: with the secret row gone,
    and any read of a GameSecret failing, the bots still play two rounds."""
    game = new_game()
    easy, hard = bots.add_bot(game, "Easy", "easy"), bots.add_bot(game, "Hard", "hard")
    games.start_game(game, now=now, seed=5)
    turns.submit_turn(game.players[0], "QUESTION B diamond", channel="web", now=now)
    resolution.resolve_round(game, now=now)  # round 2 opens; the bots have played it
    secret = game.secret
    kept = (secret.distribution, secret.salt)
    db.session.delete(secret)
    db.session.commit()

    def no_secret(*args, **kwargs):
        raise AssertionError("the distribution was read")

    monkeypatch.setattr(GameSecret, "distribution", property(no_secret))
    assert _replay_round(game, now) == 2
    for bot in (easy, hard):
        assert bot_versions(bot)[-1].status == "accepted"
    monkeypatch.undo()
    game.secret = GameSecret(distribution=kept[0], salt=kept[1])
    db.session.commit()


def _replay_round(game, now) -> int:
    """Withdraw the bots' standing turns in the open round and let them play it again."""
    from vpsleuth.models import StandingQuestion, StandingTip

    round_ = game.open_round
    ids = [p.id for p in game.players if p.is_bot]
    db.session.execute(StandingQuestion.__table__.delete().where(
        StandingQuestion.round_id == round_.id, StandingQuestion.player_id.in_(ids)))
    db.session.execute(StandingTip.__table__.delete().where(
        StandingTip.round_id == round_.id, StandingTip.player_id.in_(ids)))
    db.session.commit()
    return bots.play_bots(game, now=now)


def test_reports_mark_bots_as_bots_in_every_language(app, now):
    from vpsleuth.services import reports

    game = new_game()
    bots.add_bot(game, "Robo", "easy")
    games.start_game(game, now=now, seed=3)
    resolution.resolve_round(game, now=now)
    built = reports.build_reports(game, 1, ("en", "de", "es"))
    assert {row.player for row in built["en"].rows} == {"Ada", "Robo (bot)"}
    assert {row.player for row in built["de"].rows} == {"Ada", "Robo (Computer)"}
    assert {row.player for row in built["es"].rows} == {"Ada", "Robo (bot)"}
    assert set(built["en"].history) == {"Ada", "Robo (bot)"}


def test_the_play_bots_job_sends_a_turn_a_bot_still_owes(app, now):
    from vpsleuth import jobs

    game = new_game()
    bot = bots.add_bot(game, "Robo", "easy")
    games.start_game(game, now=now, seed=3)
    assert bots.play_bots(game, now=now) == 0  # its turn is in already
    from vpsleuth.models import StandingQuestion, StandingTip

    for table in (StandingQuestion, StandingTip):
        db.session.execute(table.__table__.delete().where(table.player_id == bot.id))
    db.session.commit()
    assert jobs.play_bots(app, now) == 1
    assert turns.standing_turn(game.open_round, bot).question is not None


def test_bot_add_on_the_command_line(runner, now):
    game = new_game("Jasper")
    result = runner.invoke(args=["bot", "add", "Jasper", "Robo", "--level", "hard"])
    assert result.exit_code == 0, result.output
    assert "Added bot 'Robo' (hard) to 'Jasper'." in result.output
    db.session.rollback()
    (bot,) = [p for p in game.players if p.is_bot]
    assert (bot.name, bot.bot_level) == ("Robo", "hard")
    refused = runner.invoke(args=["bot", "add", "Jasper", "Robo2", "--level", "genius"])
    assert refused.exit_code != 0 and "genius" in refused.output


def test_the_player_list_names_a_bot_and_its_level(runner):
    game = new_game("Onyx")
    bots.add_bot(game, "Robo", "medium")
    result = runner.invoke(args=["player", "list", "Onyx"])
    assert result.exit_code == 0, result.output
    (line,) = [row for row in result.output.splitlines() if "Robo" in row]
    assert line.endswith("active bot (medium)")


def test_past_the_deadline_a_bot_sends_nothing_rather_than_a_refused_turn(app, now):
    from datetime import timedelta

    game = new_game()
    bot = bots.add_bot(game, "Robo", "easy")
    games.start_game(game, now=now, seed=3)
    from vpsleuth.models import StandingQuestion, StandingTip

    for table in (StandingQuestion, StandingTip):
        db.session.execute(table.__table__.delete().where(table.player_id == bot.id))
    db.session.commit()
    late = game.open_round.deadline + timedelta(minutes=1)
    assert bots.play_bots(game, now=late) == 0
    assert [v.status for v in bot_versions(bot)] == ["accepted"]  # round 1's, nothing more
