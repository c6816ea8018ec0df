"""Ratings (issue 22, 2): OpenSkill over the rated games, equal to a rebuild from scratch.

A series: three rated games with players in common (one with a bot, one where a
player is withdrawn), a rated game of two humans and a bot, a game not rated,
and a practice game someone marked rated: only the first three count, and only
their humans. The leaderboard reads the same ratings as a page and by API.
"""

from __future__ import annotations

import pytest
from record_support import new_game, play
from sqlalchemy import func, select, update

from vpsleuth.extensions import db
from vpsleuth.models import Game, Profile, Rating, RatingChange
from vpsleuth.services import accounts, events, games, names, ratings, resolution
from vpsleuth.services.bots import add_bot
from vpsleuth.services.errors import Invalid, WrongState

PEOPLE = {name: f"{name.lower()}@example.org" for name in ("Ada", "Ben", "Cy", "Dee", "Eve")}


def pick(*who: str) -> dict[str, str]:
    return {name: PEOPLE[name] for name in who}


@pytest.fixture
def series(app):
    gail = accounts.create_game_master("gail@example.org", "Gail")
    first = play(new_game("One", gail, pick("Ada", "Ben", "Cy"), rated=True, seed=1))
    second = new_game("Two", gail, pick("Ada", "Ben", "Dee", "Eve"), rated=True, seed=2,
                      start=False)
    add_bot(second, "Robo", "easy")
    games.start_game(second, seed=2)
    play(second)
    few = new_game("Few", gail, pick("Ada", "Ben"), rated=True, seed=3, start=False)
    add_bot(few, "Robo", "easy")
    games.start_game(few, seed=3)
    play(few)
    play(new_game("Unrated", gail, pick("Ada", "Ben", "Cy"), seed=4))
    practice = new_game("Drill", None, pick("Ada", "Cy", "Dee"), start=False)
    practice.practice, practice.rated = True, True  # as no page would let anyone
    db.session.commit()
    games.start_game(practice, seed=5)
    play(practice)
    third = new_game("Three", gail, pick("Cy", "Dee", "Eve", "Ada"), rated=True, seed=6)
    play(third, rounds=1)
    games.withdraw_player(third.players[2])  # Eve leaves the game after round 1
    play(third, rounds=1)
    return {g.name: g for g in (first, second, few, practice, third)}


def test_ratings_after_a_series_equal_a_rebuild_from_the_stored_results(series, runner):
    rated = {g.id for g in db.session.scalars(select(Game).where(Game.state == "finished"))
             if ratings.counts(g)}
    assert rated == {series[n].id for n in ("One", "Two", "Three")}
    changes = db.session.scalars(select(RatingChange).order_by(RatingChange.id)).all()
    assert [c.game_id for c in changes] == [series["One"].id] * 3 + [series["Two"].id] * 4 \
        + [series["Three"].id] * 4  # bots never; the order in which games were rated
    stored = {p.email: (r.games, r.ordinal) for r, p in db.session.execute(
        select(Rating, Profile).join(Profile))}
    assert {e: g for e, (g, _) in stored.items()} == {
        PEOPLE["Ada"]: 3, PEOPLE["Ben"]: 2, PEOPLE["Cy"]: 2, PEOPLE["Dee"]: 2, PEOPLE["Eve"]: 2}
    assert ratings.recompute().differences() == []
    result = runner.invoke(args=["ratings", "rebuild", "--check"])
    assert result.exit_code == 0 and "3 rated games: every stored rating equals" in \
        result.output, result.output
    # A stored value off by a hair is found, and a rebuild puts it right.
    db.session.execute(update(Rating).values(mu=Rating.mu + 1e-9))
    db.session.commit()
    assert runner.invoke(args=["ratings", "rebuild", "--check"]).exit_code == 1
    assert runner.invoke(args=["ratings", "rebuild"]).exit_code == 0
    assert runner.invoke(args=["ratings", "rebuild", "--check"]).exit_code == 0
    after = {p.email: (r.games, r.ordinal) for r, p in db.session.execute(
        select(Rating, Profile).join(Profile))}
    assert after == stored


def test_the_ratings_change_in_the_transaction_that_ends_the_game_or_not_at_all(app):
    gail = accounts.create_game_master("gail@example.org", "Gail")
    game = play(new_game("Atomic", gail, pick("Ada", "Ben", "Cy"), rated=True, rounds=2),
                rounds=1)

    def fail(sender, **payload):
        if payload["ended"]:
            raise RuntimeError("the end failed")

    events.round_resolved.connect(fail)
    try:
        with pytest.raises(RuntimeError):
            resolution.resolve_round(game, number=2)
    finally:
        events.round_resolved.disconnect(fail)
    db.session.rollback()
    assert db.session.get(Game, game.id).state == "running"
    assert db.session.scalar(select(func.count()).select_from(RatingChange)) == 0
    resolution.resolve_round(db.session.get(Game, game.id), number=2)
    assert db.session.scalar(select(func.count()).select_from(RatingChange)) == 3


def test_rated_is_a_house_rule_set_before_the_start_and_never_for_practice(app):
    game = new_game("Later", None, pick("Ada", "Ben", "Cy"))
    with pytest.raises(WrongState):
        ratings.set_rated(game, True, actor="test")
    practice = new_game("Drill", None, pick("Ada"), start=False)
    practice.practice = True
    with pytest.raises(Invalid):
        ratings.set_rated(practice, True, actor="test")


def test_the_leaderboard_page_and_api_list_the_ratings_and_leave_out_who_hides(series, api):
    client = api.client
    board = api.call("GET", "/ratings")
    assert board.status_code == 200
    players = board.get_json()["players"]
    assert [p["rating"] for p in players] == sorted((p["rating"] for p in players),
                                                    reverse=True)
    assert len(players) == 5 and all("@" not in p["name"] for p in players)
    ada = next(p for p in players if p["name"] == "Ada")
    history = api.call("GET", f"/ratings/{ada['profile_id']}").get_json()
    assert [h["game"] for h in history["history"]] == [None, None, None]  # all private
    page = client.get("/leaderboard").get_data(as_text=True)
    assert all(name in page for name in PEOPLE)
    names.set_profile(PEOPLE["Ada"], display_name="Countess", hide_from_leaderboard=False)
    assert "Countess" in client.get("/leaderboard").get_data(as_text=True)
    names.set_profile(PEOPLE["Ada"], display_name="Countess", hide_from_leaderboard=True)
    assert "Countess" not in client.get("/leaderboard").get_data(as_text=True)
    assert client.get(f"/leaderboard/{ada['profile_id']}").status_code == 404
    assert api.call("GET", f"/ratings/{ada['profile_id']}").status_code == 404
    assert len(api.call("GET", "/ratings").get_json()["players"]) == 4
    assert api.call("GET", "/ratings?page=0").status_code == 400
