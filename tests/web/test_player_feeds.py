"""Private Atom and iCalendar feeds: signed tokens instead of a session."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from icalendar import Calendar

from vpsleuth.extensions import db
from vpsleuth.services import games, gm, reports, resolution, turns
from vpsleuth.web.feeds import feed_token

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def token(moonstone):
    return feed_token(games.find_player(moonstone, "Ada"))


def test_the_overview_links_the_feeds_with_the_players_own_token(moonstone, ada, token):
    page = ada.get(f"/games/{moonstone.id}").get_data(as_text=True)
    assert f"/games/{moonstone.id}/feed.atom?token={token}" in page
    assert f"/games/{moonstone.id}/calendar.ics?token={token}" in page


def test_the_atom_feed_has_one_entry_per_report_and_needs_no_session(moonstone, client, token):
    turns.submit_turn(games.find_player(moonstone, "Ada"), "QUESTION E red\nTIP A RD1",
                      channel="web")
    resolution.resolve_round(moonstone)
    resolution.resolve_round(moonstone)
    response = client.get(f"/games/{moonstone.id}/feed.atom?token={token}")
    assert response.status_code == 200 and response.mimetype == "application/atom+xml"
    assert response.headers["Cache-Control"] == "private, max-age=300"
    feed = ET.fromstring(response.data)
    assert feed.find(f"{ATOM}title").text == "VP-Sleuth: Moonstone"
    entries = feed.findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}title").text for e in entries] == [
        "Moonstone: Round report Round 2", "Moonstone: Round report Round 1"]
    assert entries[1].find(f"{ATOM}id").text.endswith(f"vpsleuth/game/{moonstone.id}/round/1")
    assert entries[1].find(f"{ATOM}link").get("href") == (
        f"http://localhost/games/{moonstone.id}/rounds/1")
    text = reports.render_text(reports.build_report(moonstone, 1), "Europe/Berlin")
    assert entries[1].find(f"{ATOM}content").text == "<pre>" + text.replace(
        "&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace(
        "'", "&#39;").replace('"', "&#34;") + "</pre>"
    again = ET.fromstring(client.get(f"/games/{moonstone.id}/feed.atom?token={token}").data)
    assert [e.find(f"{ATOM}id").text for e in again.findall(f"{ATOM}entry")] == [
        e.find(f"{ATOM}id").text for e in entries]


def test_the_calendar_has_the_open_round_and_the_planned_ones_with_stable_uids(moonstone,
                                                                                client, token):
    response = client.get(f"/games/{moonstone.id}/calendar.ics?token={token}")
    assert response.status_code == 200 and response.mimetype == "text/calendar"
    assert b"\r\n" in response.data and re.search(rb"[^\r]\n", response.data) is None
    events = Calendar.from_ical(response.data).walk("VEVENT")
    assert len(events) == 12
    first = events[0]
    assert first.decoded("dtstart") == moonstone.open_round.deadline
    assert str(first["summary"]) == "Moonstone: deadline of round 1"
    assert [e.decoded("dtstart") for e in events] == sorted(e.decoded("dtstart") for e in events)
    uids = [str(e["uid"]) for e in events]
    assert uids[0] == f"vpsleuth-game-{moonstone.id}-round-1@localhost"
    resolution.resolve_round(moonstone)
    later = Calendar.from_ical(client.get(f"/games/{moonstone.id}/calendar.ics?token={token}")
                               .data).walk("VEVENT")
    assert [str(e["uid"]) for e in later] == uids
    assert later[1].decoded("dtstart") == moonstone.open_round.deadline


def test_german_players_get_a_german_calendar(moonstone, client):
    ben = games.find_player(moonstone, "Ben")
    ben.language = "de"
    db.session.commit()
    data = client.get(f"/games/{moonstone.id}/calendar.ics?token={feed_token(ben)}").data
    first = Calendar.from_ical(data).walk("VEVENT")[0]
    assert str(first["summary"]) == "Moonstone: Abgabetermin Runde 1"


def test_a_forged_or_foreign_token_is_refused(moonstone, make_game, client, token):
    other = make_game("Other", players={"Dora": "dora@example.org"})
    dora = feed_token(games.find_player(other, "Dora"))
    for path in ("feed.atom", "calendar.ics"):
        # 404, as for a game that does not exist: a token tells nobody which games there are
        assert client.get(f"/games/{moonstone.id}/{path}?token={token}x").status_code == 404
        assert client.get(f"/games/{moonstone.id}/{path}?token=").status_code == 404
        assert client.get(f"/games/{moonstone.id}/{path}?token={dora}").status_code == 404
        assert client.get(f"/games/{other.id}/{path}?token={dora}").status_code == 200


def test_a_token_ends_when_the_game_master_changes_the_players_address(moonstone, client,
                                                                       token):
    gm.change_email(games.find_player(moonstone, "Ada"), "ada@new.example.org", actor="gm")
    assert client.get(f"/games/{moonstone.id}/feed.atom?token={token}").status_code == 404
