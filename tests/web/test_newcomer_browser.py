"""A newcomer's first visit in a real browser: the rules and the mail help from the footer,
the pages in the player's own language, Settings in the header, invited until signed
in, and the dark theme. Headless Chromium against a real server; screenshots go to
test-artifacts/screenshots/.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from browser_support import SIZES, browser_fixtures, screenshot, signed_in_page
from playwright.sync_api import expect
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import GameMaster
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games

GM = "gina@example.org"


live_fixture, browser_fixture, ctx_fixture = browser_fixtures("newcomer")


def new_game(name: str):
    """A running game of Gina's: Ada plays in English, Ben in German."""
    gm = (db.session.scalar(select(GameMaster).where(GameMaster.email == GM))
          or accounts.create_game_master(GM, "Gina"))
    first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    game = games.create_game(name, weekly(first.strftime("%Y-%m-%d %H:%M"), "Europe/Berlin"),
                             actor=GM, game_master_id=gm.id)
    games.add_player(game, "Ada", f"ada.{game.id}@example.org", language="en", actor=GM)
    games.add_player(game, "Ben", f"ben.{game.id}@example.org", language="de", actor=GM)
    games.start_game(game, seed=5, actor=GM)
    return game


def signed_in(browser, base: str, email: str, size: str = "wide", **options):
    """A fresh browser page in an English-speaking browser, signed in by a mailed link."""
    options.setdefault("locale", "en-GB")
    return signed_in_page(browser, base, email, SIZES[size], **options)


def test_the_footer_opens_the_rules_and_the_mail_help(live, ctx, browser):
    _, base = live
    game = new_game("Footer links")
    page = signed_in(browser, base, f"ada.{game.id}@example.org", size="narrow")
    page.click("#footer-rules")
    expect(page).to_have_url(f"{base}/rules")
    expect(page.locator("h1")).to_have_text("The rules of VP-Sleuth")
    expect(page.get_by_role("heading", name="Answers and scoring")).to_be_visible()
    screenshot(page, "rules", "narrow")
    page.click("#footer-mail-help")
    expect(page).to_have_url(f"{base}/help/mail")
    expect(page.locator("h1")).to_have_text("Playing by mail")
    expect(page.locator("article.doc pre").first).to_contain_text("QUESTION E blue opal")
    screenshot(page, "help-mail", "narrow")
    assert page.console_errors == [] and page.failed == []


def test_a_german_player_reads_german_pages_and_rules_in_an_english_browser(live, ctx, browser):
    _, base = live
    game = new_game("Deutsche Regeln")
    page = signed_in(browser, base, f"ben.{game.id}@example.org")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#header-settings")).to_have_text("Einstellungen")
    page.click("#footer-rules")
    expect(page.locator("h1")).to_have_text(
        "Die Spielregeln von VP-Sleuth")
    expect(page.get_by_role("heading", name="Hausregeln", exact=True)).to_be_visible()
    screenshot(page, "rules-de", "wide")
    page.click("text=EN")  # the switch wins for the rest of the visit
    expect(page.locator("h1")).to_have_text("The rules of VP-Sleuth")
    page.click("#footer-mail-help")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_settings_is_in_the_header_for_players_and_the_game_master(live, ctx, browser):
    _, base = live
    game = new_game("Header settings")
    for email in (f"ada.{game.id}@example.org", GM):
        page = signed_in(browser, base, email, size="narrow")
        page.click("#header-settings")
        expect(page).to_have_url(f"{base}/settings")
        expect(page.locator("h1")).to_have_text("Settings")
        expect(page.locator("#header-settings")).to_have_attribute("aria-current", "page")
    screenshot(page, "settings-header", "narrow")


def test_the_game_master_sees_invited_until_the_player_signs_in(live, ctx, browser):
    _, base = live
    game = new_game("Invited or joined")
    gm = signed_in(browser, base, GM)
    gm.goto(f"{base}/gm/games/{game.id}")
    ben = games.find_player(game, "Ben")
    expect(gm.locator(f"#player-{ben.id} .invited")).to_contain_text("invited")
    signed_in(browser, base, ben.email)
    gm.reload()
    expect(gm.locator(f"#player-{ben.id} .joined")).to_contain_text("joined")
    expect(gm.locator(f"#player-{ben.id} .invited")).to_have_count(0)


@pytest.mark.parametrize("size", ["narrow", "wide"])
def test_the_dark_theme_follows_the_system_setting(live, ctx, browser, size):
    _, base = live
    game = new_game(f"Dark {size}")
    page = signed_in(browser, base, f"ada.{game.id}@example.org", size=size,
                     color_scheme="dark")
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    ink = page.evaluate("getComputedStyle(document.body).color")
    assert background == "rgb(23, 21, 18)" and ink == "rgb(236, 230, 218)"
    screenshot(page, "dark-games", size)
    page.goto(f"{base}/games/{game.id}/turn")
    expect(page.locator("h1")).to_be_visible()
    screenshot(page, "dark-turn", size)
    page.goto(f"{base}/rules")
    screenshot(page, "dark-rules", size)
    light = signed_in(browser, base, f"ada.{game.id}@example.org", size=size,
                      color_scheme="light")
    assert light.evaluate("getComputedStyle(document.documentElement).backgroundColor") == \
        "rgb(251, 248, 242)"
