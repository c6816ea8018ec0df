"""The final report's story is computed before the last round is claimed (no write lock held).

resolution.ends_game must foresee the end exactly as the rules decide it when
the round is stored, or the story is computed inside the transaction after all.
"""

from __future__ import annotations

import pytest

from vpsleuth.extensions import db
from vpsleuth.mail import notify
from vpsleuth.rules import GEMS, LOCATIONS, Distribution, Ruleset
from vpsleuth.schedule import weekly
from vpsleuth.services import games, resolution, story, turns


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


def test_an_early_end_is_foreseen_only_once_every_active_player_located_every_gem(game, now):
    play(game, now, Ada=0)
    assert not resolution.ends_game(game, game.open_round), "Ben has not tipped"
    play(game, now, Ben=1)
    assert not resolution.ends_game(game, game.open_round), "one of Ben's tips is wrong"
    play(game, now, Ben=0)
    assert resolution.ends_game(game, game.open_round)  # Quitter is no longer active
    resolution.resolve_round(game, now=now)
    assert game.state == "finished"


def test_the_last_round_ends_the_game_and_one_before_it_does_not(game, now):
    resolution.resolve_round(game, now=now)
    assert not resolution.ends_game(game, game.open_round)
    resolution.resolve_round(game, now=now)
    assert resolution.ends_game(game, game.open_round)


def test_a_round_with_no_active_player_left_ends_the_game(game, now):
    for name in ("Ada", "Ben"):
        games.withdraw_player(games.find_player(game, name), now=now)
    assert resolution.ends_game(game, game.open_round)


def test_an_early_end_finds_the_story_computed_before_the_round_was_claimed(
        game, now, monkeypatch):
    seen = []
    round_report = notify.round_report

    def spy(game_, round_):  # renders the mails after the claim, before the commit
        seen.append(story.record_story.cache_info())
        round_report(game_, round_)
        seen.append(story.record_story.cache_info())
    monkeypatch.setattr(notify, "round_report", spy)
    play(game, now, Ada=0, Ben=0)
    resolution.resolve_round(game, now=now)
    assert game.state == "finished"
    before, after = seen
    assert before.misses == 1  # computed before the claim
    assert after.misses == 1 and after.hits > before.hits  # found inside


def test_nothing_is_computed_before_a_round_that_does_not_end_the_game(game, now):
    play(game, now, Ada=0, Ben=3)
    resolution.resolve_round(game, now=now)
    assert game.state == "running"
    assert story.record_story.cache_info().misses == 0


def test_nothing_is_computed_when_nobody_gets_the_final_report_by_mail(game, now):
    game.practice = True  # a practice game mails nobody
    db.session.commit()
    play(game, now, Ada=0, Ben=0)
    assert resolution.ends_game(game, game.open_round)
    resolution.resolve_round(game, now=now)
    assert game.state == "finished"
    assert story.record_story.cache_info().misses == 0
