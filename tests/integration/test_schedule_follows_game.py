"""Schedules that follow the game: the deadline after an early close, and moving one earlier."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, OutboxMessage
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import games, gm, resolution, turns
from vpsleuth.services.errors import Invalid, WrongState

EARLY = Ruleset(early_resolution=True)


def new_game(after_early: str, name: str = "Quartz", **options):
    """Weekly on Sundays at 20:00 in Berlin from 6 Dec 2026; Ada and Ben play."""
    game = games.create_game(name, weekly("2026-12-06 20:00", "Europe/Berlin"), EARLY,
                             after_early=after_early, **options)
    for name_, email in (("Ada", "ada@example.org"), ("Ben", "ben@example.org")):
        games.add_player(game, name_, email)
    return game


def everyone_sends(game, now) -> None:
    for player in game.active_players:
        turns.submit_turn(player, "TIP A RD1", channel="cli", now=now)


def actions(game) -> list[str]:
    return list(db.session.scalars(select(AuditEntry.action).where(
        AuditEntry.game_id == game.id).order_by(AuditEntry.id)))


def test_a_game_keeps_the_calendar_after_an_early_close_unless_told_otherwise(app, now):
    game = games.create_game("Plain", weekly("2026-12-06 20:00", "Europe/Berlin"), EARLY)
    assert game.after_early == "calendar"
    games.add_player(game, "Ada", "ada@example.org")
    games.start_game(game, now=now)
    everyone_sends(game, now + timedelta(hours=1))
    assert [r.number for r in resolution.resolve_due(now + timedelta(hours=1))] == [1]
    # Round 1 was due on Sunday the 6th; round 2 keeps Sunday the 13th, 20:00.
    local = to_local(game.round(2).deadline, "Europe/Berlin")
    assert local.strftime("%a %d %H:%M") == "Sun 13 20:00"


def test_a_fresh_period_starts_when_everyone_has_sent_and_the_rest_follow(app, now):
    game = new_game("fresh")
    games.start_game(game, now=now)  # Tuesday 1 Dec, 12:00 UTC
    closed = now + timedelta(days=1, minutes=30, seconds=5)  # Wednesday 13:30:05 in Berlin
    everyone_sends(game, closed - timedelta(minutes=1))
    assert [r.number for r in resolution.resolve_due(closed)] == [1]
    second = game.round(2)
    assert second.deadline == (closed + timedelta(days=7)).replace(second=0) + timedelta(
        minutes=1)
    assert to_local(second.deadline, "Europe/Berlin").strftime("%a %d %H:%M") == "Wed 09 13:31"
    # Round 2 runs to its deadline: round 3 is a week after it, not back on Sunday.
    resolution.resolve_due(second.deadline + timedelta(seconds=20))
    assert game.round(3).deadline == second.deadline + timedelta(days=7)


def test_resolve_now_by_the_game_master_counts_as_an_early_close(app, now):
    game = new_game("fresh")
    games.start_game(game, now=now)
    resolution.resolve_round(game, now=now + timedelta(hours=2), actor="gm", number=1)
    assert game.round(2).deadline == now + timedelta(days=7, hours=2)


def test_the_choice_can_change_while_the_game_runs_and_is_audited(app, now):
    game = new_game("calendar")
    games.start_game(game, now=now)
    gm.set_after_early(game, "fresh", actor="gm@example.org")
    gm.set_after_early(game, "fresh", actor="gm@example.org")  # no change, no entry
    assert game.after_early == "fresh"
    assert actions(game).count("set_after_early") == 1
    with pytest.raises(Invalid, match="calendar or fresh, not 'weekly'"):
        gm.set_after_early(game, "weekly", actor="gm@example.org")
    with pytest.raises(Invalid, match="calendar or fresh"):
        new_game("sometimes", name="Other")


def test_a_finished_game_keeps_its_choice(app, now):
    game = games.create_game("Short", weekly("2026-12-06 20:00", "Europe/Berlin"),
                             Ruleset(rounds=1))
    games.add_player(game, "Ada", "ada@example.org")
    games.start_game(game, now=now)
    resolution.resolve_round(game, now=now, actor="gm", number=1)
    with pytest.raises(WrongState, match="has ended"):
        gm.set_after_early(game, "fresh", actor="gm")


def test_a_deadline_can_move_earlier_and_the_players_are_told(app, now):
    game = new_game("calendar")
    round_ = games.start_game(game, now=now)
    old = round_.deadline
    sooner = now + timedelta(days=2)
    gm.move_deadline(game, sooner, actor="gm@example.org", now=now)
    assert round_.deadline == sooner < old
    assert actions(game)[-1] == "advance_deadline"
    mails = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "deadline_moved")).all()
    assert sorted(m.to_addr for m in mails) == ["ada@example.org", "ben@example.org"]
    assert all("brought the deadline forward" in m.body_text for m in mails)
    later = now + timedelta(days=9)
    gm.move_deadline(game, later, actor="gm@example.org", now=now)
    assert round_.deadline == later and actions(game)[-1] == "extend_deadline"


def test_a_deadline_never_moves_into_the_past_or_onto_itself(app, now):
    game = new_game("calendar")
    round_ = games.start_game(game, now=now)
    old = round_.deadline
    with pytest.raises(Invalid, match="must be in the future"):
        gm.move_deadline(game, now - timedelta(minutes=1), actor="gm", now=now)
    with pytest.raises(Invalid, match="must be in the future"):
        gm.move_deadline(game, now, actor="gm", now=now)
    with pytest.raises(Invalid, match="that is the current deadline"):
        gm.move_deadline(game, old, actor="gm", now=now)
    # Extending stays later-only (the API's /extend).
    with pytest.raises(Invalid, match="must be later than the current one"):
        gm.extend_deadline(game, old - timedelta(hours=1), actor="gm", now=now)
    db.session.rollback()
    assert game.open_round.deadline == old
    assert "advance_deadline" not in actions(game)


def test_the_command_line_creates_a_game_with_a_fresh_interval(runner):
    result = runner.invoke(args=["game", "create", "Beryl", "--first-deadline",
                                 "2027-01-10 20:00", "--timezone", "Europe/Berlin", "--early",
                                 "--after-early", "fresh"])
    assert result.exit_code == 0, result.output
    assert games.find_game("Beryl").after_early == "fresh"
    refused = runner.invoke(args=["game", "create", "Onyx", "--after-early", "soon"])
    assert refused.exit_code != 0 and "'soon' is not one of 'calendar', 'fresh'" in refused.output


def test_an_export_keeps_the_choice_and_an_older_export_keeps_the_calendar(app, now):
    from vpsleuth.services import transfer

    game = new_game("fresh")
    games.start_game(game, now=now)
    data = transfer.export_game(game, with_secret=True)
    assert transfer.import_game(data, name="Copy").after_early == "fresh"
    del data["game"]["after_early"]
    assert transfer.import_game(data, name="Older").after_early == "calendar"
    data["game"]["after_early"] = "soon"
    with pytest.raises(Invalid, match="calendar or fresh"):
        transfer.import_game(data, name="Broken")
