"""A finished game's story is told once by a job, after the commit that ends the game.

Never inside the round's transaction (no lock waits on the engine) and never
twice at the same time; the final report waits for it, and is never lost
when telling it fails.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import GameStory, OutboxMessage
from vpsleuth.rules import GEMS, LOCATIONS, Distribution, Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, resolution, stories, story, turns


@pytest.fixture
def game(app, now):
    """Round 1 of 3, Ada and Ben playing, Quitter withdrawn before sending anything."""
    game = games.create_game("Warm", weekly("2026-12-06 20:00", "Europe/Berlin"),
                             Ruleset(rounds=3))
    for name in ("Ada", "Ben", "Quitter"):
        games.add_player(game, name, f"{name.lower()}@example.org")
    games.start_game(game, now=now, seed=5)
    games.withdraw_player(games.find_player(game, "Quitter"), now=now)
    story.record_story.cache_clear()
    return game


def everything(game, *, wrong: int = 0) -> str:
    """A turn that asks a question and tips every gem, the first ``wrong`` of them wrongly."""
    deal = Distribution.from_canonical(game.secret.distribution)
    lines = ["QUESTION A red"]
    for i, gem in enumerate(GEMS):
        place = deal[gem] if i >= wrong else next(p for p in LOCATIONS if p != deal[gem])
        lines.append(f"TIP {place} {gem.code}")
    return "\n".join(lines)


def play(game, now, **wrong: int) -> None:
    for name, count in wrong.items():
        turns.submit_turn(games.find_player(game, name), everything(game, wrong=count),
                          channel="cli", now=now)


def final_reports() -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "final_report").order_by(OutboxMessage.to_addr)))


def test_an_early_end_asks_for_the_story_and_the_final_report_waits_for_it(game, now):
    play(game, now, Ada=0, Ben=0)
    resolution.resolve_round(game, now=now)
    assert game.state == "finished"
    assert story.record_story.cache_info().misses == 0  # nothing told inside the round
    row = stories.find(game)
    assert (row.state, row.final_report, row.after_round) == ("queued", True, 1)
    assert final_reports() == []
    assert stories.tell_queued(now) == [game.id]
    mails = final_reports()
    # Quitter too: withdrawn while the round was open, so it was still his round.
    assert [m.to_addr for m in mails] == ["ada@example.org", "ben@example.org",
                                          "quitter@example.org"]
    assert all("When each gem became certain" in m.body_text for m in mails)
    assert stories.ready(game)["final"] is True


def test_a_round_that_does_not_end_the_game_asks_for_no_story(game, now):
    play(game, now, Ada=0, Ben=3)
    resolution.resolve_round(game, now=now)
    assert game.state == "running"
    assert db.session.scalar(select(GameStory)) is None
    assert stories.tell_queued(now) == []
    assert story.record_story.cache_info().misses == 0


def test_a_practice_game_mails_nobody_yet_its_story_is_told_for_its_page(game, now):
    game.practice = True  # a practice game mails nobody
    db.session.commit()
    play(game, now, Ada=0, Ben=0)
    resolution.resolve_round(game, now=now)
    assert stories.tell_queued(now) == [game.id]
    assert final_reports() == [] and stories.ready(game) is not None


def test_one_story_is_claimed_by_one_worker_at_a_time(game, now):
    play(game, now, Ada=0, Ben=0)
    resolution.resolve_round(game, now=now)
    row = stories.find(game)
    assert stories._claim(row.id, now) == 1
    assert stories._claim(row.id, now) is None  # a second worker finds it taken
    assert stories.tell_queued(now) == []  # and so does the job, while the claim is fresh
    # A claim older than STALE is a worker that stopped: it is taken over, once.
    later = now + stories.STALE + timedelta(seconds=1)
    assert stories.tell_queued(later) == [game.id]
    assert stories.find(game).attempts == 2 and stories.find(game).state == "ready"
    assert len(final_reports()) == 3


def test_a_story_that_keeps_failing_is_given_up_and_the_final_report_goes_with_a_link(
        game, now, monkeypatch):
    def broken(game_, **kw):
        raise RuntimeError("the engine fell over")
    monkeypatch.setattr(story, "tell", broken)
    play(game, now, Ada=0, Ben=0)
    resolution.resolve_round(game, now=now)
    for attempt in range(1, stories.ATTEMPTS + 1):
        assert stories.tell_queued(now) == []
        row = stories.find(game)
        assert row.attempts == attempt
        assert row.error == "RuntimeError: the engine fell over"
        assert (row.state == "failed") == (attempt == stories.ATTEMPTS)
        assert (final_reports() != []) == (attempt == stories.ATTEMPTS)
    mails = final_reports()
    assert len(mails) == 3 and stories.tell_queued(now) == []
    assert f"/games/{game.id}/story" in mails[0].body_text  # the link, not the story
    assert "When each gem became certain" not in mails[0].body_text


def test_a_story_a_final_report_waits_for_is_told_before_older_ones_asked_for_a_page(
        game, now):
    other = games.create_game("Earlier", weekly("2026-12-06 20:00", "Europe/Berlin"),
                              Ruleset(rounds=3))
    games.add_player(other, "Cy", "cy@example.org")
    games.start_game(other, now=now, seed=6)
    resolution.resolve_round(other, now=now)
    stories.request(other, now=now)  # a GM's page asked for it first
    db.session.commit()
    play(game, now, Ada=0, Ben=0)
    resolution.resolve_round(game, now=now)  # ends the game: its report waits
    assert stories.tell_queued(now, limit=1) == [game.id]
    assert stories.tell_queued(now, limit=1) == [other.id]


def test_a_final_report_waits_for_its_story_only_so_long_and_goes_once(game, now):
    play(game, now, Ada=0, Ben=0)
    resolution.resolve_round(game, now=now)
    wait = timedelta(minutes=5)
    assert stories.release_overdue(now + wait - timedelta(seconds=1)) == []
    assert final_reports() == []
    assert stories.release_overdue(now + wait + timedelta(seconds=1)) == [game.id]
    mails = final_reports()
    assert len(mails) == 3 and f"/games/{game.id}/story" in mails[0].body_text
    assert "When each gem became certain" not in mails[0].body_text  # not told yet
    assert stories.release_overdue(now + 2 * wait) == []
    assert stories.tell_queued(now + 2 * wait) == [game.id]  # told later, for the page
    assert len(final_reports()) == 3 and stories.ready(game) is not None
