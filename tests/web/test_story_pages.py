"""The game told afterwards: page and API for the GM at any time, players only after the end."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from vpsleuth.extensions import db
from vpsleuth.rules import GEMS, Distribution, Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games, resolution, stories, turns
from vpsleuth.web.story_chart import deals_chart

GM, ADA, BEN, EVE = "gm@example.org", "ada@example.org", "ben@example.org", "eve@example.org"


def crafted_deal() -> Distribution:
    """B holds the three red diamonds; RP1 lies at C; the rest fills up in sheet order."""
    fixed = {"RD1": "B", "RD2": "B", "RD3": "B", "RP1": "C"}
    free = iter(loc for loc, n in [("A", 5), ("B", 2), ("C", 4), ("D", 5), ("E", 5),
                                   ("F", 5), ("G", 5), ("X", 1)] for _ in range(n))
    return Distribution({g: fixed.get(g.code) or next(free) for g in GEMS})


@pytest.fixture
def told(app, gm_web_as, signed_in):
    """A two-round game: round 1 proves the red diamonds at B; round 2 is still open."""
    gm = accounts.create_game_master(GM, "Grace")
    game = games.create_game("Told", weekly("2031-01-05 20:00", "UTC"), Ruleset(rounds=2),
                             actor=GM, game_master_id=gm.id)
    ada = games.add_player(game, "Ada", ADA, actor=GM)
    ben = games.add_player(game, "Ben", BEN, actor=GM)
    games.add_player(games.create_game("Elsewhere", weekly("2031-01-05 20:00", "UTC")),
                     "Eve", EVE)
    games.start_game(game, seed=1, actor=GM)
    game.secret.distribution = crafted_deal().canonical()
    db.session.commit()
    turns.submit_turn(ada, "QUESTION B red diamond\nTIP B RD1\nTIP A RP1", channel="web")
    turns.submit_turn(ben, "TIP C RD1", channel="web")
    resolution.resolve_round(game, number=1, actor=GM)
    turns.submit_turn(ada, "TIP B RD1, RD2", channel="web")
    return game, ada


def finish(game) -> None:
    """Resolve the last round, then run the job that tells the story (as the scheduler would)."""
    resolution.resolve_round(game, number=2, actor=GM)
    assert game.state == "finished"
    assert stories.tell_queued() == [game.id]


def page(client, game) -> tuple[int, str]:
    response = client.get(f"/games/{game.id}/story")
    return response.status_code, response.get_data(as_text=True)


def test_the_gm_reads_the_story_while_the_game_runs_and_its_players_do_not(
        told, gm_web_as, signed_in):
    game, _ = told
    gm = gm_web_as(GM)
    console = gm.get(f"/gm/games/{game.id}").get_data(as_text=True)
    assert f'href="/games/{game.id}/story" id="gm-story-link"' in console
    status, text = page(gm, game)
    assert status == 202 and 'id="story-pending"' in text  # asked for; the job tells it
    assert stories.tell_queued() == [game.id]
    status, text = page(gm, game)
    assert status == 200 and 'id="story-running"' in text
    assert "How many red diamonds does B hold?" in text
    assert page(signed_in(ADA), game)[0] == 404
    assert 'id="story-link"' not in signed_in(ADA).get(f"/games/{game.id}").get_data(
        as_text=True)


def test_after_the_end_players_read_when_each_gem_became_certain_and_strangers_get_404(
        told, signed_in):
    game, _ = told
    finish(game)
    ada = signed_in(ADA)
    assert 'id="story-link"' in ada.get(f"/games/{game.id}").get_data(as_text=True)
    status, text = page(ada, game)
    assert status == 200 and 'id="story-running"' not in text
    gems = re.search(r'<table id="story-gems">.*?</table>', text, re.S).group(0)
    rows = re.findall(r'gem-R">(RD\d)</span>.*?<td class="num">(\d+)</td><td>(\w)</td>', gems,
                      re.S)
    assert rows == [("RD1", "1", "B"), ("RD2", "1", "B"), ("RD3", "1", "B")]
    assert page(signed_in(EVE), game)[0] == 404


def test_the_players_tips_are_measured_against_what_the_record_had_proved(told, signed_in):
    game, _ = told
    finish(game)
    text = page(signed_in(BEN), game)[1]
    table = re.search(r'<table id="story-players">.*?</table>', text, re.S).group(0)
    cells = {name: re.findall(r'<td class="num">(-?\d+)</td>', row) for name, row in
             re.findall(r'<th scope="row">(\w+)</th>(.*?)</tr>', table, re.S)}
    # safe, guesses, right, wrong, left on the table, points left
    assert cells["Ada"] == ["2", "2", "1", "1", "1", "1"]  # RD3 not tipped in round 2
    assert cells["Ben"] == ["0", "1", "0", "1", "3", "3"]  # no turn in round 2


def test_the_deals_chart_is_valid_svg_with_a_point_per_round(told, gm_web_as):
    game, _ = told
    finish(game)
    from vpsleuth.services import story

    svg = deals_chart(story.tell(game), "en")
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    points = root.findall(".//{http://www.w3.org/2000/svg}circle")
    assert len(points) == 2  # two rounds; one line, named by its axis: no legend
    assert "Deals still possible" in svg and "Bits" not in svg


def test_the_api_gives_the_story_to_the_gm_always_and_to_players_after_the_end(told, app):
    game, ada = told
    _, gm_token = accounts.issue_api_token(game_master=game_master(game), label="t")
    _, ada_token = accounts.issue_api_token(player=ada, label="t")
    db.session.commit()
    client = app.test_client()

    def get(token):
        return client.get(f"/api/v1/games/{game.id}/story",
                          headers={"Authorization": f"Bearer {token}"})
    assert get(ada_token).status_code == 404
    pending = get(gm_token)
    assert pending.status_code == 202 and pending.headers["Retry-After"] == "3"
    assert pending.get_json() == {"game_id": game.id, "state": "queued", "retry_after": 3}
    assert stories.tell_queued() == [game.id]
    running = get(gm_token).get_json()
    assert running["final"] is False and running["after_round"] == 1
    finish(game)
    told_json = get(ada_token).get_json()
    assert told_json["final"] is True and told_json["after_round"] == 2
    assert set(told_json) == {"game_id", "game", "final", "after_round", "start_bits",
                              "complete", "rounds", "gems", "players"}
    assert told_json["complete"] is True
    first = told_json["rounds"][0]
    assert first["newly_certain"] == ["RD1", "RD2", "RD3"] and first["certain"] == 3
    assert first["questions"][0]["question"] == "B:RD" and first["questions"][0]["answer"] == 3
    assert {p["player"]: p["points_left"] for p in told_json["players"]} == {"Ada": 1, "Ben": 3}


def game_master(game):
    from vpsleuth.models import GameMaster

    return db.session.get(GameMaster, game.game_master_id)


def test_without_the_aid_the_running_games_sheet_shows_nothing_of_the_engine(told, signed_in):
    game, _ = told
    text = signed_in(ADA).get(f"/games/{game.id}/sheet").get_data(as_text=True)
    assert "ruled-out" not in text and "proved-" not in text and "aid-legend" not in text


def test_with_the_aid_the_sheet_hatches_ruled_out_places_and_names_proved_ones(
        told, signed_in):
    game, _ = told
    game.deduction_aid = True  # set here only to compare: the GM fixes it before the start
    db.session.commit()
    text = signed_in(ADA).get(f"/games/{game.id}/sheet").get_data(as_text=True)
    assert 'id="aid-legend"' in text
    assert re.search(r'id="proved-RD1">= B<span class="sr-only"> \(proved by the public '
                     r'answers\)</span>', text)
    assert 'id="proved-RP1"' not in text  # where RP1 lies is not proved

    def cell(gem: str, loc: str) -> str:
        return re.search(rf'<td[^>]*><button[^>]*id="cell-{gem}-{loc}"', text).group(0)
    assert 'class="ruled-out"' in cell("RD1", "A") and 'aria-describedby="aid-ruled-out"' \
        in cell("RD1", "A")
    assert "ruled-out" not in cell("RD1", "B")
    # B holds five gems; three are the red diamonds, so B's other places are still open.
    assert "ruled-out" not in cell("RP1", "B") and "ruled-out" in cell("RD1", "X")


def test_the_final_report_partials_tell_the_story_in_the_readers_language(told, app):
    from flask import render_template

    from vpsleuth.mail.words import Words

    game, _ = told
    finish(game)
    app.config["STORY_IN_FINAL_REPORT"] = True
    text = render_template("email/_story.txt", game=game, player=None,
                           base_url="https://example.org", **Words("en", False).context())
    assert "THE GAME TOLD AFTERWARDS" in text
    assert ("RD1 at B, certain after round 1: How many red diamonds does B hold? 3 (Ada)"
            in text)
    assert ("Ada: 2 safe tips; 2 guesses (1 right, 1 wrong); 1 proved gem not tipped "
            "(1 point missed).\n") in text
    assert ("Ben: 0 safe tips; 1 guess (0 right, 1 wrong); 3 proved gems not tipped "
            "(3 points missed).") in text
    html = render_template("email/_story.html", game=game, player=None,
                           base_url="https://example.org", **Words("de", True).context())
    assert "Das Spiel im Rückblick" in html
    assert "Wie viele rote Diamanten hat B? <strong>3</strong>" in html
    assert f'href="https://example.org/games/{game.id}/story"' in html


def report_mails() -> dict:
    from sqlalchemy import select

    from vpsleuth.models import OutboxMessage

    return {m.kind: m for m in db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.to_addr == ADA, OutboxMessage.kind.in_(("report", "final_report"))))}


def test_with_the_story_switched_off_the_final_report_only_links_the_story_page(told, app):
    from vpsleuth.services import story

    game, _ = told
    app.config["STORY_IN_FINAL_REPORT"] = False
    story.record_story.cache_clear()
    resolution.resolve_round(game, number=2, actor=GM)
    final = report_mails()["final_report"]  # queued with the round, not waiting for a story
    row = stories.find(game)
    assert (row.state, row.final_report) == ("queued", False)  # the page's story, by the job
    assert "THE GAME TOLD AFTERWARDS" in final.body_text
    assert f"/games/{game.id}/story" in final.body_text
    assert "When each gem became certain" not in final.body_text
    assert story.record_story.cache_info().misses == 0  # nothing computed, not even before


def test_the_final_report_mail_tells_the_story_and_earlier_reports_do_not(told, app):
    game, _ = told
    assert app.config["STORY_IN_FINAL_REPORT"] is True  # the default, tests included
    resolution.resolve_round(game, number=2, actor=GM)
    assert "final_report" not in report_mails()  # it waits for its story: seconds, not lost
    assert stories.tell_queued() == [game.id]
    mails = report_mails()
    assert "THE GAME TOLD AFTERWARDS" not in mails["report"].body_text
    final = mails["final_report"]
    assert "THE GAME TOLD AFTERWARDS" in final.body_text
    assert ("RD1 at B, certain after round 1: How many red diamonds does B hold? 3 (Ada)"
            in final.body_text)
    assert f"/games/{game.id}/story" in final.body_html


def test_the_story_is_told_after_the_commit_that_ends_the_game_never_inside_it(
        told, app, monkeypatch):
    from sqlalchemy import create_engine, select

    from vpsleuth.models import Game
    from vpsleuth.services import story

    game, ada = told
    turns.submit_turn(ada, "QUESTION A red\nTIP B RD1, RD2", channel="web")
    story.record_story.cache_clear()
    seen = []
    tell = story.tell
    # A connection of its own sees only what is committed.
    outside = create_engine(app.config["SQLALCHEMY_DATABASE_URI"])

    def spy(game_, **kw):
        with outside.connect() as conn:
            seen.append(conn.scalar(select(Game.state).where(Game.id == game_.id)))
        return tell(game_, **kw)
    monkeypatch.setattr(story, "tell", spy)
    resolution.resolve_round(game, number=2, actor=GM)
    assert game.state == "finished" and seen == []  # the round's transaction told nothing
    assert story.record_story.cache_info().misses == 0
    assert stories.tell_queued() == [game.id]
    assert seen == ["finished"]  # told once, after the end was committed
    assert stories.tell_queued() == [] and seen == ["finished"]  # and never again
    outside.dispose()
    row = stories.find(game)
    assert row.state == "ready" and row.attempts == 1 and row.seconds is not None
    assert "When each gem became certain" in report_mails()["final_report"].body_text


def test_the_story_writes_its_bits_with_the_readers_decimal_mark(told, gm_web_as):
    game, _ = told
    gm = gm_web_as(GM)
    page(gm, game)
    stories.tell_queued()
    english = page(gm, game)[1]
    gm.get("/lang/de")
    german = page(gm, game)[1]
    start = re.search(r"At the start: (\d+)\.(\d) bits", english)
    assert start, "the English page writes the start bits with a decimal point"
    assert f"{start[1]},{start[2]} Bit" in german  # 101,5 Bit: Babel's German decimal comma
    assert "about 1.0\xa0×\xa010²⁷ deals" in english
    assert "etwa 1,0\xa0×\xa010²⁷ Verteilungen" in german
