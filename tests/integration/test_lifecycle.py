"""Setting up, starting and resolving games through the services."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, Round, RoundResult
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import explicit, to_local, weekly
from vpsleuth.services import games, reports, resolution, turns
from vpsleuth.services.errors import Invalid, NotFound, WrongState


def new_game(name="Life", rules=None):
    return games.create_game(name, weekly("2026-12-06 20:00", "Europe/Berlin"), rules)


def test_game_names_and_player_names_and_addresses_must_be_unique(app):
    game = new_game()
    with pytest.raises(Invalid, match="exists already"):
        new_game("life")
    games.add_player(game, "Ada", "ada@example.org")
    with pytest.raises(Invalid, match="already plays"):
        games.add_player(game, "ADA", "other@example.org")
    with pytest.raises(Invalid, match="already plays"):
        games.add_player(game, "Eve", "Ada@Example.org")
    with pytest.raises(Invalid, match="not an email address"):
        games.add_player(game, "Eve", "eve at example")
    assert [p.name for p in game.players] == ["Ada"]


def test_a_game_starts_once_with_players_and_opens_round_one_at_its_deadline(app, now):
    game = new_game()
    with pytest.raises(WrongState, match="no players"):
        games.start_game(game, now=now)
    games.add_player(game, "Ada", "ada@example.org")
    first = games.start_game(game, now=now)
    assert first.number == 1 and first.state == "open"
    local = to_local(first.deadline, "Europe/Berlin")
    assert (local.date().isoformat(), local.hour, local.minute) == ("2026-12-06", 20, 0)
    assert len(game.commitment) == 64 and game.secret.salt
    with pytest.raises(WrongState, match="started already"):
        games.start_game(game, now=now)
    actions = db.session.scalars(select(AuditEntry.action).order_by(AuditEntry.id)).all()
    assert actions == ["create_game", "add_player", "start_game"]
    assert game.secret.distribution not in str(db.session.scalars(select(AuditEntry.detail)).all())


def test_two_deals_differ_and_secrets_are_never_in_their_reprs(app, now):
    a, b = new_game("One"), new_game("Two")
    for g in (a, b):
        games.add_player(g, "Ada", "ada@example.org")
        games.start_game(g, now=now)
    assert a.secret.distribution != b.secret.distribution
    assert a.secret.distribution not in repr(a.secret) + repr(a)


def test_a_second_resolution_is_a_no_op(app, now):
    game = new_game()
    ada = games.add_player(game, "Ada", "ada@example.org")
    games.start_game(game, now=now, seed=3)
    turns.submit_turn(ada, "TIP A RD1", channel="cli", now=now)
    assert resolution.resolve_round(game, now=now, number=1) is not None
    assert resolution.resolve_round(game, now=now, number=1) is None
    first = game.round(1)
    count = db.session.scalar(select(func.count()).select_from(RoundResult)
                              .where(RoundResult.round_id == first.id))
    assert count == 1
    assert [r.number for r in game.rounds_] == [1, 2]


def test_the_next_round_keeps_the_weekly_rhythm_and_the_last_round_ends_the_game(app, now):
    game = new_game(rules=Ruleset(rounds=2))
    games.add_player(game, "Ada", "ada@example.org")
    games.start_game(game, now=now)
    resolution.resolve_round(game, now=now)
    second = game.open_round
    assert second.deadline - game.round(1).deadline == timedelta(days=7)
    resolution.resolve_round(game, now=now)
    assert game.state == "finished" and game.open_round is None
    assert resolution.resolve_round(game, now=now) is None


def test_an_explicit_schedule_gives_each_round_its_listed_deadline(app, now):
    schedule = explicit(["2026-12-06 20:00", "2026-12-20 18:00"], "Europe/Berlin")
    game = games.create_game("Listed", schedule)
    games.add_player(game, "Ada", "ada@example.org")
    games.start_game(game, now=now)
    resolution.resolve_round(game, now=now)
    local = to_local(game.open_round.deadline, "Europe/Berlin")
    assert (local.day, local.hour) == (20, 18)


def test_rounds_are_due_at_their_deadline_or_early_when_everyone_has_sent(app, now):
    game = new_game(rules=Ruleset(early_resolution=True))
    ada = games.add_player(game, "Ada", "ada@example.org")
    ben = games.add_player(game, "Ben", "ben@example.org")
    round_ = games.start_game(game, now=now)
    assert not resolution.is_due(round_, now)
    assert resolution.is_due(round_, round_.deadline)
    turns.submit_turn(ada, "QUESTION A red", channel="cli", now=now)
    assert not resolution.is_due(round_, now)
    turns.submit_turn(ben, "TIP A RD1", channel="cli", now=now)
    assert resolution.is_due(round_, now)
    assert [r.number for r in resolution.resolve_due(now)] == [1]
    assert resolution.resolve_due(now) == []


def test_without_early_resolution_a_full_round_waits_for_the_deadline(app, now):
    game = new_game()
    ada = games.add_player(game, "Ada", "ada@example.org")
    round_ = games.start_game(game, now=now)
    turns.submit_turn(ada, "QUESTION A red", channel="cli", now=now)
    assert resolution.resolve_due(now) == []
    assert [r.number for r in resolution.resolve_due(round_.deadline)] == [1]


def test_reports_of_unresolved_rounds_and_unknown_games_are_clear_errors(app, now):
    game = new_game()
    with pytest.raises(NotFound, match="no round"):
        reports.build_report(game)
    with pytest.raises(NotFound, match="no game called 'nope'"):
        games.find_game("nope")
    with pytest.raises(NotFound, match="no player 'Zed'"):
        games.find_player(game, "Zed")


def test_a_withdrawn_player_keeps_past_results_and_drops_out_of_later_ones(app, now):
    game = new_game()
    ada = games.add_player(game, "Ada", "ada@example.org")
    ben = games.add_player(game, "Ben", "ben@example.org")
    games.start_game(game, now=now)
    resolution.resolve_round(game, now=now)
    games.withdraw_player(ben)
    with pytest.raises(WrongState):
        games.withdraw_player(ben)
    resolution.resolve_round(game, now=now)
    assert [r.player for r in reports.build_report(game, 1).rows] == ["Ada", "Ben"]
    assert [r.player for r in reports.build_report(game, 2).rows] == [ada.name]


def test_two_simultaneous_resolutions_resolve_the_round_once(app, now):
    game = new_game()
    games.add_player(game, "Ada", "ada@example.org")
    games.start_game(game, now=now)
    game_id, results, barrier = game.id, [], threading.Barrier(2)

    def resolve_in_thread():
        with app.app_context():
            barrier.wait()
            from vpsleuth.models import Game

            try:
                game_ = db.session.get(Game, game_id)
                done = resolution.resolve_round(game_, now=now, number=1)
                results.append(done is not None)
            except Exception as exc:  # noqa: BLE001 - a lost race may fail cleanly
                db.session.rollback()
                results.append(type(exc).__name__)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=resolve_in_thread) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    db.session.expire_all()
    assert results.count(True) == 1, results
    assert db.session.scalar(select(func.count()).select_from(RoundResult)) == 1
    assert db.session.scalar(select(func.count()).select_from(Round)) == 2
