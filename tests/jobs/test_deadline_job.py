"""The resolve job with time travel: due exactly at the deadline, report and next round by mail."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, Round, RoundResult
from vpsleuth.rules import Ruleset
from vpsleuth.services import games, gm, resolution, turns


def deadline_of(game, number=1):
    db.session.expire_all()
    return game.round(number).deadline


def test_a_round_is_due_exactly_at_its_deadline_and_not_a_second_before(app, new_game):
    game = new_game()
    deadline = deadline_of(game)
    assert jobs.resolve_rounds(app, deadline - timedelta(seconds=1)) == []
    assert game.round(1).state == "open"
    assert jobs.resolve_rounds(app, deadline) == [(game.id, 1)]
    db.session.expire_all()
    assert game.round(1).state == "resolved"
    assert game.round(2).deadline == deadline + timedelta(days=7)


def test_a_round_is_resolved_once_however_often_the_job_runs(app, new_game):
    game = new_game()
    deadline = deadline_of(game)
    results = [jobs.resolve_rounds(app, deadline + timedelta(seconds=s)) for s in range(4)]
    assert results == [[(game.id, 1)], [], [], []]
    count = db.session.scalar(select(func.count()).select_from(RoundResult))
    assert count == 3
    assert db.session.scalar(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.action == "resolve_round")) == 1
    assert db.session.scalar(select(func.count()).select_from(Round)) == 2


def test_a_missed_tick_changes_nothing_the_stored_deadline_decides(app, new_game):
    game = new_game()
    deadline = deadline_of(game)
    # No tick for a day after the deadline, no heartbeat ever: resolved at the next tick,
    # and the next deadline keeps the weekly rhythm.
    assert jobs.resolve_rounds(app, deadline + timedelta(days=1)) == [(game.id, 1)]
    assert deadline_of(game, 2) == deadline + timedelta(days=7)


def test_after_resolution_the_report_and_the_next_round_go_out_by_mail(
        app, sink, new_game, now):
    game = new_game()
    ada, bob, _ = game.players
    turns.submit_turn(ada, "QUESTION A red\nTIP A RD1, B RD2", channel="cli", now=now)
    turns.submit_turn(bob, "TIP X YO3", channel="cli", now=now)
    jobs.send_outbox(app, now)
    sink.received.clear()
    deadline = deadline_of(game)
    jobs.resolve_rounds(app, deadline)
    assert jobs.send_outbox(app, deadline) == 6
    distribution = game.secret.distribution
    for player in game.players:
        mails = {m["Subject"].split(" until ")[0]: m for m in sink.to(player.email)}
        assert set(mails) == {"Winter: report of round 1", "Winter: round 2 is open"}
        report = mails["Winter: report of round 1"].get_body(("plain",)).get_content()
        assert "Ada" in report and "Bob" in report and "Cyd" in report
        for message in mails.values():
            body = message.get_body(("plain",)).get_content()
            assert distribution not in body and game.secret.salt not in body
            assert message["Auto-Submitted"] == "auto-generated"


def test_early_resolution_comes_once_every_active_player_has_a_turn(app, new_game, now):
    early = new_game("Early", rules=Ruleset(early_resolution=True))
    late = new_game("Late")
    for game in (early, late):
        for i, player in enumerate(game.players):
            if i < 2:
                turns.submit_turn(player, "TIP A RD1", channel="cli", now=now)
    assert jobs.resolve_rounds(app, now + timedelta(hours=1)) == []
    games.withdraw_player(early.players[2], now=now)
    games.withdraw_player(late.players[2], now=now)
    assert jobs.resolve_rounds(app, now + timedelta(hours=2)) == [(early.id, 1)]
    db.session.expire_all()
    assert late.round(1).state == "open"


def test_a_paused_game_is_not_resolved_at_its_deadline(app, new_game):
    game = new_game()
    deadline = deadline_of(game)
    gm.pause_game(game, actor="gm", now=deadline - timedelta(hours=1))
    assert jobs.resolve_rounds(app, deadline + timedelta(hours=1)) == []
    db.session.expire_all()
    assert game.round(1).state == "open"


def test_the_tick_reads_as_candidates_exactly_the_rounds_that_are_due(app, new_game, now):
    """resolution.may_be_due (SQL, every running game) agrees with is_due (per round)."""
    def sent(game, texts):
        for player, text in zip(game.players, texts, strict=False):
            turns.submit_turn(player, text, channel="cli", now=now)
        return game

    early = Ruleset(early_resolution=True)
    everyone = ("QUESTION E blue opal", "TIP A RD1", "TIP B GP2\nQUESTION A red")
    made = {
        "early, every turn in": sent(new_game("E1", rules=early), everyone),
        "early, one missing": sent(new_game("E2", rules=early), everyone[:2]),
        "early, the missing one withdrawn": sent(new_game("E3", rules=early), everyone[:2]),
        "early, nobody active": new_game("E4", rules=early),
        "no early, every turn in": sent(new_game("L1"), everyone),
        "no early, deadline passed": new_game("L2"),
        "paused, deadline passed": new_game("P1"),
    }
    games.withdraw_player(made["early, the missing one withdrawn"].players[2], now=now)
    for player in made["early, nobody active"].players:
        games.withdraw_player(player, now=now)
    gm.pause_game(made["paused, deadline passed"], actor="gm", now=now)
    for name in ("no early, deadline passed", "paused, deadline passed"):
        made[name].round(1).deadline = now - timedelta(minutes=1)
    db.session.commit()
    candidates = [set(db.session.scalars(select(Round.id).join(Round.game).where(condition)))
                  for condition in resolution.may_be_due(now)]
    assert not candidates[0] & candidates[1]  # no round read twice
    due = {name for name, game in made.items() if resolution.is_due(game.round(1), now)}
    assert due == {"early, every turn in", "early, the missing one withdrawn",
                   "no early, deadline passed"}
    assert candidates[0] | candidates[1] == {made[name].round(1).id for name in due}
