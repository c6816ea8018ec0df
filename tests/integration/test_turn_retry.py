"""A turn whose database goes away while it is applied: retried once safe, never twice.

The failover test (tests/faults/test_failover.py) kills a real primary; here the
lost connection is raised at the two moments that matter, so each path runs every
time: before the applying commit (the turn must be applied on the retry) and after
it (the commit landed: the retry must find it so and apply nothing again).
"""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, OperationalError

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, TurnVersion
from vpsleuth.rules import parse_question
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import events, games, standing_turns, turns

TURN = "QUESTION E blue opal\nTIP A RD1"


def connection_lost() -> OperationalError:
    return OperationalError("UPDATE standing_tip ...", {},
                            Exception("server closed the connection unexpectedly"),
                            connection_invalidated=True)


@pytest.fixture
def ada(app, now):
    game = games.create_game("Retry", weekly("2026-12-06 20:00", "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org", invite=False)
    games.start_game(game, now=now, seed=1)
    app.config["TURN_RETRY_SECONDS"] = 2
    return games.find_player(game, "Ada")


def failing(times: int, error, then):
    """A stand-in that raises ``error()`` the first ``times`` calls, then calls ``then``."""
    calls = []

    def stand_in(*args, **kwargs):
        calls.append(1)
        if len(calls) <= times:
            raise error()
        return then(*args, **kwargs)
    stand_in.calls = calls
    return stand_in


def stored(ada) -> list[tuple[str, int]]:
    db.session.expire_all()
    return [(v.status, v.id) for v in db.session.scalars(
        select(TurnVersion).where(TurnVersion.player_id == ada.id))]


def confirmations() -> int:
    return db.session.scalar(select(func.count()).select_from(OutboxMessage).where(
        OutboxMessage.kind == "confirmation"))


def test_a_connection_lost_before_the_commit_is_retried_and_the_turn_applied_once(
        ada, now, monkeypatch):
    apply = failing(2, connection_lost, turns._apply)
    monkeypatch.setattr(turns, "_apply", apply)
    sub = turns.submit_turn(ada, TURN, channel="web", now=now)
    assert len(apply.calls) == 3  # two lost connections, then the one that went through
    assert sub.standing.question == parse_question("E blue opal")
    assert [status for status, _ in stored(ada)] == ["accepted"]
    assert confirmations() == 1  # the rolled-back tries queued nothing
    assert standing_turns.standing_turn(sub.round, ada).question == parse_question("E blue opal")


def test_a_connection_lost_after_the_commit_landed_applies_nothing_again(
        ada, now, monkeypatch):
    apply = failing(0, connection_lost, turns._apply)
    monkeypatch.setattr(turns, "_apply", apply)
    after = failing(1, connection_lost, lambda *a, **k: [])
    monkeypatch.setattr(events.after_turn_accepted, "send", after)
    sub = turns.submit_turn(ada, TURN, channel="web", now=now)
    assert len(apply.calls) == 1  # its status said accepted: not applied again
    assert len(after.calls) == 2  # what follows a commit still follows it
    assert sub.standing.question == parse_question("E blue opal")
    assert [status for status, _ in stored(ada)] == ["accepted"]
    assert sub.version.id == stored(ada)[0][1]
    assert confirmations() == 1


def test_a_turn_whose_commit_landed_is_not_applied_again_when_the_first_look_fails_too(
        ada, now, monkeypatch):
    """The database goes after the commit and is still away at the first look at the
    version: the next try looks again, rather than apply the stored version blind."""
    apply = failing(0, connection_lost, turns._apply)
    monkeypatch.setattr(turns, "_apply", apply)
    lost = []  # "commit": the line went after the commit; "look": and at the first look

    def after_the_commit(*args, **kwargs):
        if not lost:
            lost.append("commit")
            raise connection_lost()
        return []

    real_get = db.session.get

    def looking(*args, **kwargs):
        if lost == ["commit"]:
            lost.append("look")
            raise connection_lost()
        return real_get(*args, **kwargs)

    monkeypatch.setattr(events.after_turn_accepted, "send", after_the_commit)
    monkeypatch.setattr(db.session, "get", looking)
    sub = turns.submit_turn(ada, TURN, channel="web", now=now)
    assert lost == ["commit", "look"]
    assert len(apply.calls) == 1  # its status, read on the next try, said accepted
    assert [status for status, _ in stored(ada)] == ["accepted"]
    assert sub.version.id == stored(ada)[0][1]
    assert confirmations() == 1


def test_a_database_away_longer_than_the_retry_time_fails_with_the_version_kept(
        ada, now, monkeypatch):
    monkeypatch.setattr(turns, "_apply", failing(99, connection_lost, turns._apply))
    with pytest.raises(OperationalError):
        turns.submit_turn(ada, TURN, channel="web", now=now)
    db.session.rollback()
    assert [status for status, _ in stored(ada)] == ["received"]  # kept, never applied
    assert confirmations() == 0


def test_any_other_database_error_is_not_retried(ada, now, monkeypatch):
    apply = failing(1, lambda: IntegrityError("INSERT", {}, Exception("duplicate key")),
                    turns._apply)
    monkeypatch.setattr(turns, "_apply", apply)
    with pytest.raises(IntegrityError):
        turns.submit_turn(ada, TURN, channel="web", now=now)
    assert len(apply.calls) == 1
