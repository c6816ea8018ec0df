"""Absences in a real browser: the game's page "I'm away" at 360 and 1280 px in English,
German and Spanish (a refused form, then a noted absence, then cancelled), and the GM's
absences page; axe-core clean, nothing scrolling sideways. Headless Chromium against a
real server; screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from axe_support import looked_at
from browser_support import browser_fixtures, signed_in_page
from playwright.sync_api import expect

from vpsleuth.extensions import db
from vpsleuth.models import Absence
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import absence, accounts, games

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("absence")
WIDTHS = (360, 1280)
GM = "gail@example.org"
READERS = {"en": "ada@example.org", "de": "bert@example.org", "es": "carmen@example.org"}
WORDS = {"en": ("I'm away", "cannot end", "Noted: you are away from", "Cancelled: your absence"),
         "de": ("Ich bin weg", "kann nicht enden", "Eingetragen: Du bist vom",
                "Abgesagt: deine Abwesenheit"),
         "es": ("Estaré fuera", "no puede terminar", "Anotado: estás ausente del",
                "Cancelada: tu ausencia")}
NOTE = "a long trip to the mountains of Patagonia, without any network at all"


def today() -> datetime:
    return datetime.now(UTC).astimezone(ZoneInfo("Europe/Berlin"))


@pytest.fixture(scope="module")
def game_id(live):
    app, _ = live
    with app.app_context():
        gail = accounts.create_game_master(GM, "Gail")
        first = today() + timedelta(days=3)
        game = games.create_game("Olivine", weekly(first.strftime("%Y-%m-%d %H:%M"),
                                                   "Europe/Berlin"), game_master_id=gail.id,
                                 missed_turn_rule="repeat-when-absent")
        for (lang, email), name in zip(READERS.items(), ("Ada", "Bert", "Carmen"), strict=True):
            games.add_player(game, name, email, language=lang)
        games.start_game(game, seed=4)
        carmen = game.players[2]
        day = today().date()
        absence.announce(carmen, day, day + timedelta(days=30), "boda", channel="web",
                         entered_by=carmen.email)
        return game.id


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_announces_and_cancels_an_absence_at_both_widths(
        live, ctx, browser, game_id, lang, width):
    _, base = live
    heading, refused, noted, cancelled = WORDS[lang]
    page = signed_in_page(browser, base, READERS[lang], {"width": width, "height": 900})
    page.goto(f"{base}/games/{game_id}")
    expect(page.locator("#absence-heading")).to_have_text(heading)
    if lang != "es":  # Carmen is away, and the others see until when (never her note)
        expect(page.locator(".players .away")).to_have_count(1)
        expect(page.locator("body")).not_to_contain_text("boda")
    looked_at(page, f"absence-{lang}", width)
    start = today().date() + timedelta(days=2 + width % 7)
    page.fill("#absence-starts", (start + timedelta(days=4)).isoformat())
    page.fill("#absence-ends", start.isoformat())
    page.fill("#absence-note", NOTE)
    page.click("#save-absence")
    expect(page.locator("#absence-error")).to_contain_text(refused)
    expect(page.locator("#absence-note")).to_have_value(NOTE)  # kept for the next try
    looked_at(page, f"absence-refused-{lang}", width, refused="/absences")
    page.fill("#absence-starts", start.isoformat())
    page.fill("#absence-ends", (start + timedelta(days=4)).isoformat())
    page.click("#save-absence")
    expect(page.locator(".flash.ok")).to_contain_text(noted)
    mine = page.locator("#my-absences li", has_text=NOTE)
    expect(mine).to_have_count(1)
    looked_at(page, f"absence-noted-{lang}", width)
    mine.locator("button").click()
    expect(page.locator(".flash.ok")).to_contain_text(cancelled)
    expect(page.locator("#my-absences li", has_text=NOTE)).to_have_count(0)
    page.wait_for_load_state("load")
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_gm_reads_the_notes_and_enters_an_absence(live, ctx, browser, game_id, width):
    _, base = live
    page = signed_in_page(browser, base, GM, {"width": width, "height": 900})
    page.goto(f"{base}/gm/games/{game_id}/board")
    expect(page.locator(".pill.away")).to_have_count(1)
    page.click(".pill.away")
    expect(page.locator("#absences")).to_contain_text("boda")
    looked_at(page, "absence-gm", width)
    start = today().date() + timedelta(days=40 + width % 5)
    page.select_option("#absence-player", label="Ada")
    page.fill("#absence-starts", start.isoformat())
    page.fill("#absence-ends", (start + timedelta(days=2)).isoformat())
    page.fill("#absence-note", "told me by phone")
    page.click("#gm-save-absence")
    expect(page.locator(".flash.ok")).to_contain_text("Noted: Ada is away from")
    expect(page.locator("#absences")).to_contain_text("told me by phone")
    looked_at(page, "absence-gm-entered", width)
    db.session.rollback()
    assert db.session.query(Absence).filter(Absence.channel == "gm").count() >= 1
    page.context.close()
