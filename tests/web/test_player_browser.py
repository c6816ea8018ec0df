"""The players' pages in a real browser: headless Chromium against a real server.

The app runs on a werkzeug server in a thread with a SQLite file database;
Playwright drives Debian's Chromium. Screenshots of the main pages go to
test-artifacts/screenshots/ at a phone and a desktop size.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import browser_support
import pytest
from browser_support import SIZES, browser_fixtures, screenshot, watch
from playwright.sync_api import expect

from vpsleuth.extensions import db
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, resolution, turns

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("browser")


def new_game(name: str, rules: Ruleset | None = None):
    first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    game = games.create_game(name, weekly(first.strftime("%Y-%m-%d %H:%M"), "Europe/Berlin"),
                             rules)
    for player in ("Ada", "Ben", "Cleo"):
        games.add_player(game, player, f"{player.lower()}.{game.id}@example.org")
    games.start_game(game, seed=11)
    return game


def signed_in_page(browser, base: str, email: str, size: str = "wide", **options):
    """A fresh browser page, signed in by following a sign-in link and confirming."""
    page = browser_support.signed_in_page(browser, base, email, SIZES[size], **options)
    page.wait_for_url(f"{base}/")
    return page


def standing_codes(game, name: str) -> dict[str, str]:
    db.session.expire_all()
    tips = turns.standing_turn(game.open_round, games.find_player(game, name)).tips
    return {g.code: loc for g, loc in tips.items()}


def test_a_player_signs_in_picks_a_question_and_tips_by_mouse_and_keyboard(live, ctx, browser):
    _, base = live
    game = new_game("Browser one")
    page = signed_in_page(browser, base, f"ada.{game.id}@example.org")
    page.click(f"text={game.name}")
    page.click("#enter-turn")
    page.select_option("#q-place", "E")
    page.select_option("#q-colour", "B")
    page.select_option("#q-kind", "O")
    page.click("label[for=tip-RD1-A]")
    page.focus("#tip-BP2-none")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tip-BP2-B")).to_be_checked()
    page.click("label[for=tip-YO3-X]")
    expect(page.locator("#tip-count")).to_have_text("3")
    page.click("#save-turn")
    expect(page.locator(".flash.ok")).to_contain_text("Your turn for round 1 is saved.")
    expect(page.locator("#standing-text")).to_have_text(
        "QUESTION E blue opal\nTIP A RD1\nTIP B BP2\nTIP X YO3\n")
    expect(page.locator("#tip-BP2-B")).to_be_checked()
    expect(page.locator("#q-kind")).to_have_value("O")
    assert standing_codes(game, "Ada") == {"RD1": "A", "BP2": "B", "YO3": "X"}


def test_the_script_prevents_a_third_attribute_and_the_server_refuses_one(live, ctx, browser):
    _, base = live
    game = new_game("Browser two")
    page = signed_in_page(browser, base, f"ben.{game.id}@example.org")
    page.goto(f"{base}/games/{game.id}/turn")
    page.select_option("#q-place", "A")
    page.select_option("#q-colour", "R")
    expect(page.locator("#q-kind")).to_be_enabled()
    page.select_option("#q-size", "1")
    expect(page.locator("#q-kind")).to_be_disabled()
    expect(page.locator("#q-note")).to_be_visible()
    page.select_option("#q-colour", "")
    expect(page.locator("#q-kind")).to_be_enabled()
    page.select_option("#q-colour", "R")
    page.evaluate("() => { const s = document.getElementById('q-kind');"
                  " s.disabled = false; s.value = 'D'; }")
    page.click("#save-turn")
    expect(page.locator("#question-error")).to_contain_text("at most two attributes")
    assert standing_codes(game, "Ben") == {}


def test_last_rounds_tips_are_prefilled_and_changed_in_round_two(live, ctx, browser):
    _, base = live
    game = new_game("Browser three")
    turns.submit_turn(games.find_player(game, "Cleo"), "TIP A RD1, BP2\nTIP X YO3",
                      channel="email")
    resolution.resolve_round(game)
    page = signed_in_page(browser, base, f"cleo.{game.id}@example.org", size="narrow")
    page.goto(f"{base}/games/{game.id}/turn")
    expect(page.locator("#tip-RD1-none")).to_be_checked()
    page.click("#prefill")
    expect(page.locator("#prefill-note")).to_be_visible()
    expect(page.locator("#tip-RD1-A")).to_be_checked()
    expect(page.locator("#tip-YO3-X")).to_be_checked()
    page.click("label[for=tip-RD1-C]")
    page.click("label[for=tip-BP2-none]")
    page.click("#save-turn")
    expect(page.locator(".flash.ok")).to_contain_text("round 2 is saved")
    assert standing_codes(game, "Cleo") == {"RD1": "C", "YO3": "X"}


def test_deadlines_are_shown_in_the_browsers_time_zone(live, ctx, browser):
    _, base = live
    game = new_game("Browser four")
    page = signed_in_page(browser, base, f"ada.{game.id}@example.org",
                          timezone_id="America/New_York")
    page.goto(f"{base}/games/{game.id}")
    local = game.open_round.deadline.astimezone(ZoneInfo("America/New_York"))
    deadline = page.locator(".open-round time.js-local-time")
    expect(deadline).to_have_class("js-local-time localised")
    expect(deadline).to_contain_text(local.strftime("%H:%M"))
    expect(page.locator(".open-round .time-left")).to_contain_text("left")


def play_rounds(game, rounds: int) -> None:
    players = {p.name: p for p in game.players}
    questions = ["E blue opal", "A cluster", "C red", "G diamond", "B pair"]
    for n in range(rounds):
        turns.submit_turn(players["Ada"], f"QUESTION {questions[n % 5]}\nTIP A RD1, BP2\n"
                          f"TIP X YO3, C GD{n % 3 + 1}", channel="web")
        turns.submit_turn(players["Ben"], f"QUESTION {questions[(n + 2) % 5]}\nTIP B GO1",
                          channel="email")
        if n % 2:
            turns.submit_turn(players["Cleo"], "QUESTION F yellow pearl\nTIP D YD2",
                              channel="email")
        resolution.resolve_round(game)


@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots_of_the_main_player_pages(live, ctx, browser, size):
    _, base = live
    game = new_game(f"Winter {size}")
    play_rounds(game, 4)
    turns.submit_turn(games.find_player(game, "Ada"), "QUESTION D green\nTIP A RD1",
                      channel="web")
    page = signed_in_page(browser, base, f"ada.{game.id}@example.org", size=size)
    watch(page)  # script errors, Content-Security-Policy refusals, failed responses
    pages = {"home": "/", "game": f"/games/{game.id}", "turn": f"/games/{game.id}/turn",
             "sheet": f"/games/{game.id}/sheet", "report": f"/games/{game.id}/rounds/4",
             "standings": f"/games/{game.id}/standings", "settings": "/settings"}
    for name, path in pages.items():
        response = page.goto(base + path)
        assert response.status == 200, path
        screenshot(page, f"player-{name}", size)  # kept when VPSLEUTH_SCREENSHOTS asks
        assert len(page.screenshot(full_page=True)) > 10_000, name  # a page, not a blank
    ended = new_game(f"Ended {size}", Ruleset(rounds=2, first_bonus_round=2))
    games.add_player(ended, "Dora", f"ada.{game.id}@example.org")
    play_rounds(ended, 2)
    page.goto(f"{base}/games/{ended.id}/rounds/2")
    page.click("#reveal button[type=submit]")
    expect(page.locator("#verify-result")).to_contain_text("It matches")
    page.go_back()
    screenshot(page, "player-final-report", size)
    page.goto(f"{base}/lang/de?next=/games/{game.id}/turn")
    expect(page.locator("h1")).to_contain_text("Dein Zug")
    screenshot(page, "player-turn-de", size)
    assert (page.console_errors, page.failed) == ([], [])
