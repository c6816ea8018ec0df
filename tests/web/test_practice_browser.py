"""Practice in headless Chromium at 360 and 1280 px, in English, German and Spanish.

A player starts a practice game from the form, sends a turn, and lands on the
round it resolved, with the next round's form below; every page is axe-clean,
fits the width without scrolling sideways, and is kept as a screenshot in
test-artifacts/screenshots/.
"""

from __future__ import annotations

import pytest
from axe_support import check
from browser_support import SCREENSHOTS, browser_fixtures, shoot_once, signed_in_page
from browser_support import screenshot as full_page_screenshot
from playwright.sync_api import expect

from vpsleuth.extensions import db
from vpsleuth.models import Game
from vpsleuth.rules import Distribution, Question

SIZES = {"narrow": {"width": 360, "height": 740}, "wide": {"width": 1280, "height": 900}}
RESOLVED = {"en": "Round 1 is resolved", "de": "Runde 1 ist ausgewertet",
            "es": "Ronda 1 resuelta"}

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("practice")


def looked_at(page, name: str, size: str) -> None:
    """Screenshot, no sideways scrolling at the viewport's width, no serious axe finding."""
    full_page_screenshot(page, name, size)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], f"{name} scrolls sideways: {width}px"
    found = check(page)
    assert found.failing == 0, found.details
    assert (page.console_errors, page.failed) == ([], [])


@pytest.mark.parametrize("size", ["narrow", "wide"])
@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_a_practice_turn_leads_to_the_round_it_resolved(ctx, live, browser, lang, size):
    _, base = live
    page = signed_in_page(browser, base, f"zoe.{lang}.{size}@example.org", SIZES[size])
    page.goto(f"{base}/lang/{lang}")
    page.goto(f"{base}/practice")
    looked_at(page, f"practice-form-{lang}", size)
    page.fill("#name", "Zoe")
    page.click("#start-practice")
    page.wait_for_load_state()
    expect(page.locator("#early-note")).to_be_visible()
    looked_at(page, f"practice-turn-{lang}", size)

    page.click("#paste summary")
    page.fill("#turn-text", "QUESTION A blue\nTIP X RD1")
    page.click("#save-turn")
    page.wait_for_load_state()
    panel = page.locator("#just-resolved")
    expect(panel).to_contain_text(RESOLVED[lang])
    db.session.expire_all()
    game = db.session.query(Game).filter(Game.practice).order_by(Game.id.desc()).first()
    answer = Question.from_codes("A:B").answer(
        Distribution.from_canonical(game.secret.distribution))
    assert page.locator("#your-answer strong").inner_text().endswith(f": {answer}")
    expect(page.locator("#just-standings tbody tr")).to_have_count(4)
    expect(page.locator("input[name=round]")).to_have_value("2")
    looked_at(page, f"practice-resolved-{lang}", size)
    shoot_once(page, SCREENSHOTS / f"practice-resolved-top-{lang}-{size}.png",  # the panel
               full_page=True, clip={"x": 0, "y": 0, "width": SIZES[size]["width"],
                                     "height": 1300})

    page.click("#just-resolved-report")
    page.wait_for_load_state()
    assert page.url.endswith(f"/games/{game.id}/rounds/1")
    page.goto(f"{base}/games/{game.id}")
    expect(page.locator("#early-note")).to_be_visible()
    looked_at(page, f"practice-game-{lang}", size)
