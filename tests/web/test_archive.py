"""The archive of finished games, read over real HTTP by someone who never signed in (22, 1).

Gail runs three games: Zircon Vault (public, finished), Quartz Hall (public,
finished, older), Basalt Keep (finished, private) and Garnet Row (public, but
still running, with tips standing). Ada plays in all of them; Ben chose a
display name; Cy's name is his address, which must never show.
"""

from __future__ import annotations

import html
import re

import pytest
from browser_support import serve
from http_support import Browser
from record_support import new_game, play, tell
from sqlalchemy import select

from vpsleuth.engine import possible_places
from vpsleuth.extensions import db
from vpsleuth.models import Game
from vpsleuth.rules import GEMS, LOCATIONS
from vpsleuth.services import accounts, archive, names, resolution, turns
from vpsleuth.services.record import public_record

pytestmark = pytest.mark.live_db  # a real server in a thread reads the database

GAIL, ADA, BEN = "gail@example.org", "ada@example.org", "ben@example.org"
CY = "cy@example.org"
PLAYERS = {"Ada": ADA, "Ben": BEN, "Cy": CY}
CELL = re.compile(r'<tr data-gem="(\w+)">(.*?)</tr>', re.S)
TD = re.compile(r'<td class="(\w+)[^"]*" data-place="(\w)">')


@pytest.fixture
def world(app):
    gail = accounts.create_game_master(GAIL, "Gail")
    quartz = play(new_game("Quartz Hall", gail, {"Ada": ADA, "Ben": BEN}, public=True))
    zircon = new_game("Zircon Vault", gail, {"Ada": ADA, "Ben": BEN, CY: CY}, seed=11,
                      public=True)
    names.set_display_name(zircon.players[1], "Benjamin")
    play(zircon)
    basalt = play(new_game("Basalt Keep", gail, PLAYERS))
    garnet = new_game("Garnet Row", gail, PLAYERS, public=True, rounds=3)
    play(garnet, rounds=1)
    turns.submit_turn(garnet.players[0], "TIP A RD1", channel="cli")  # standing, secret
    tell()
    with serve(app) as base:
        yield base, {g.name: g.id for g in (quartz, zircon, basalt, garnet)}


def texts(response) -> str:
    return html.unescape(response.text)


def test_a_stranger_reads_the_public_finished_games_and_nothing_else(world, app):
    base, ids = world
    gail, stranger = Browser(base).sign_in(GAIL), Browser(base)
    zircon = ids["Zircon Vault"]
    for public, status in (("", 404), ("on", 200)):  # the GM's own switch, over HTTP
        made = gail.post(f"/gm/games/{zircon}/public", {"public": public},
                         form_page=f"/gm/games/{zircon}")
        assert made.status_code == 302
        assert stranger.get(f"/archive/{zircon}").status_code == status
    listing = stranger.get("/archive")
    assert listing.status_code == 200
    assert listing.headers["Cache-Control"] == "public, max-age=60"
    assert "Accept-Language" in listing.headers["Vary"]
    page = texts(listing)
    assert page.index("Zircon Vault") < page.index("Quartz Hall")  # newest first
    assert "Basalt Keep" not in page and "Garnet Row" not in page
    pages = [f"/archive/{zircon}", f"/archive/{zircon}/rounds/1", f"/archive/{zircon}/rounds/2",
             f"/archive/{zircon}/story", f"/archive/{zircon}/replay/1",
             f"/archive/{zircon}/replay/3"]
    for path in pages:
        answer = stranger.get(path)
        assert answer.status_code == 200, path
        body = texts(answer)
        assert "Benjamin" in body or path.endswith("/replay/3"), path
        for never in ("@example.org", ">Ben<", "Ben:"):
            assert never not in body, (path, never)
    final = texts(stranger.get(f"/archive/{zircon}/rounds/2"))
    assert "player 3" in final and 'id="distribution"' in final  # Cy's seat, the deal
    # A private game, and a public one still running, are as unknown as a game that is not.
    for name in ("Basalt Keep", "Garnet Row"):
        for path in ("", "/rounds/1", "/story", "/replay/1", "/replay/2"):
            assert stranger.get(f"/archive/{ids[name]}{path}").status_code == 404, (name, path)
    assert stranger.get("/archive/999999").status_code == 404
    # Signed in, the same page names its reader: no cache may keep it.
    assert Browser(base).sign_in(ADA).get("/archive").headers["Cache-Control"] == "no-store"


def test_search_finds_games_and_display_names_never_addresses_and_pages(world, monkeypatch):
    base, ids = world
    stranger = Browser(base)

    def found(query: str) -> list[str]:
        page = texts(stranger.get(f"/archive?q={query}"))
        return re.findall(r'id="archive-game-\d+">\s*<h2><a [^>]*>([^<]+)</a>', page)

    assert found("zircon") == ["Zircon Vault"]
    assert found("benjamin") == ["Zircon Vault"]  # the display name, in one game only
    assert found("Ben") == ["Zircon Vault", "Quartz Hall"]  # "Benjamin"; Ben's own name
    assert found("example.org") == [] and found("cy@") == []  # never by address
    assert found("%") == [] and found("_") == []  # wildcards are letters here
    assert found("zir%00con") == ["Zircon Vault"]  # no name holds a control character
    monkeypatch.setattr(archive, "PER_PAGE", 1)
    first, second = texts(stranger.get("/archive")), texts(stranger.get("/archive?page=2"))
    assert "Zircon Vault" in first and "Quartz Hall" not in first and 'rel="next"' in first
    assert "Quartz Hall" in second and "Zircon Vault" not in second
    assert stranger.get("/archive?page=0").status_code == 400
    assert stranger.get("/archive?page=x").status_code == 400


def test_each_replay_step_shows_the_engines_possible_places_after_that_round(world, app):
    base, ids = world
    stranger = Browser(base)
    game = db.session.get(Game, ids["Zircon Vault"])
    record = public_record(game)
    for number in range(1, len(record.rounds) + 1):
        page = stranger.get(f"/archive/{game.id}/replay/{number}").text
        shown = {gem: {place for state, place in TD.findall(row) if state != "out"}
                 for gem, row in CELL.findall(page)}
        proved = possible_places(record.upto(number).answers())
        assert shown == {g.code: set(proved[g]) for g in GEMS}, number
        certain = sum(1 for places in proved.values() if len(places) == 1)
        assert f">{certain} gem" in page, number  # "12 gems certain"
        assert "TIP" not in page.upper().replace("NO TIP IS SHOWN", "")
    reveal = stranger.get(f"/archive/{game.id}/replay/{len(record.rounds) + 1}").text
    assert reveal.count(" truth") == len(GEMS)  # every gem's true place framed
    assert stranger.get(f"/archive/{game.id}/replay/{len(record.rounds) + 2}").status_code \
        == 404
    assert set(LOCATIONS) == set("ABCDEFGX")


def test_display_names_refuse_control_characters_addresses_and_others_names(world, app):
    base, ids = world
    ada = Browser(base).sign_in(ADA)
    game = db.session.get(Game, ids["Zircon Vault"])
    seat = game.players[0]
    for bad in ("Ada\r\nBcc: x@y.z", "Ad\x00a", "me@example.org", "Benjamin", "BEN", "x" * 41):
        answer = ada.post("/settings", {"player_id": seat.id, "action": "display_name",
                                        "display_name": bad}, form_page="/settings")
        assert answer.status_code == 400, bad
    for bad in ("Ben", "Gail\x07"):  # another's name across games; a control character
        answer = ada.post("/settings/profile", {"display_name": bad}, form_page="/settings")
        assert answer.status_code == 400, bad
    assert ada.post("/settings", {"player_id": seat.id, "action": "display_name",
                                  "display_name": " Lady Ada "},
                    form_page="/settings").status_code == 302
    db.session.rollback()
    assert db.session.get(Game, game.id).players[0].display_name == "Lady Ada"
    assert "Lady Ada" in texts(Browser(base).get(f"/archive/{game.id}"))


def test_a_game_ended_before_it_was_made_public_is_listed_once_the_gm_says_so(world, app):
    base, ids = world
    basalt = db.session.get(Game, ids["Basalt Keep"])
    assert Browser(base).get(f"/archive/{basalt.id}").status_code == 404
    archive.set_public(basalt, True, actor="test")
    assert Browser(base).get(f"/archive/{basalt.id}").status_code == 200
    assert db.session.scalar(select(Game.public).where(Game.id == basalt.id))
    resolution.resolve_round(basalt)  # nothing to resolve: it has ended
