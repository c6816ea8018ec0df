"""Handing a seat on from the GM's game page in a real browser: at 360 and 1280 px, in
English, German and Spanish, axe-core clean, nothing scrolling sideways; the form asks,
the next page confirms, the seat is the newcomer's. Screenshots go to
test-artifacts/screenshots/.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from axe_support import looked_at
from browser_support import browser_fixtures, signed_in_page
from playwright.sync_api import expect

from vpsleuth.extensions import db
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("seat-change")
WIDTHS = (360, 1280)
GMS = {"en": "grace@example.org", "de": "gerd@example.org", "es": "gloria@example.org"}
WORDS = {"en": ("Hand the seat on", "Hand the seat on?", "now holds Bob's seat, from round 1"),
         "de": ("Platz weitergeben", "Platz weitergeben?", "übernimmt ab Runde 1 den Platz "
                "von Bob"),
         "es": ("Ceder el puesto", "¿Ceder el puesto?", "ocupa ahora el puesto de Bob desde "
                "la ronda 1")}


@pytest.fixture(scope="module")
def masters(live):
    app, _ = live
    with app.app_context():
        return {lang: accounts.create_game_master(email, email.split("@")[0].title(),
                                                  language=lang).id
                for lang, email in GMS.items()}


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize("width", WIDTHS)
def test_a_gm_hands_a_seat_on_after_confirming(live, ctx, browser, masters, lang, width):
    _, base = live
    summary, title, done = WORDS[lang]
    first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    game = games.create_game(f"Seat {lang} {width}", weekly(first.strftime("%Y-%m-%d %H:%M"),
                                                            "Europe/Berlin"),
                             language=lang, game_master_id=masters[lang], actor=GMS[lang])
    for name in ("Ada", "Bob"):
        games.add_player(game, name, f"{name.lower()}.{lang}{width}@example.org",
                         actor=GMS[lang])
    games.start_game(game, seed=4, actor=GMS[lang])
    bob = games.find_player(game, "Bob")
    page = signed_in_page(browser, base, GMS[lang], {"width": width, "height": 900})
    page.goto(f"{base}/gm/games/{game.id}")
    seat = page.locator(f"#player-{bob.id} details.replace-seat")
    seat.locator("summary").click()
    expect(seat.locator("summary")).to_have_text(summary)
    seat.locator("input[name=name]").fill("Dora")
    seat.locator("input[name=email]").fill(f"dora.{lang}{width}@example.org")
    looked_at(page, f"seat-form-{lang}", width)
    seat.locator("button[type=submit]").click()
    expect(page.locator("#replace-title")).to_have_text(title)
    expect(page.locator("#replace-summary")).to_contain_text("Dora")
    looked_at(page, f"seat-confirm-{lang}", width)
    page.click("#confirm-replace")
    expect(page.locator(".flash.ok")).to_contain_text(done)
    looked_at(page, f"seat-done-{lang}", width)
    db.session.expire_all()
    assert games.find_player(game, "Dora").id == bob.id
    page.context.close()
