"""The rulebook and a game's rules page in a real browser: at 360 and 1280 px, in
English, German and Spanish, axe-core clean, nothing scrolling sideways. Headless
Chromium against a real server; screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from axe_support import looked_at
from browser_support import browser_fixtures, signed_in_page
from playwright.sync_api import expect

from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("rules")
WIDTHS = (360, 1280)
READERS = {"en": "ada@example.org", "de": "bert@example.org", "es": "carmen@example.org"}
HEADINGS = {"en": ("The rules of VP-Sleuth", "Rules of this game", "changed"),
            "de": ("Die Spielregeln von VP-Sleuth", "Regeln dieses Spiels", "geändert"),
            "es": ("Reglas de VP-Sleuth", "Reglas de esta partida", "cambiada")}


@pytest.fixture(scope="module")
def game_id(live):
    app, _ = live
    with app.app_context():
        first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
        game = games.create_game(
            "Chrysoberyl", weekly(first.strftime("%Y-%m-%d %H:%M"), "Europe/Berlin"),
            Ruleset(rounds=8, first_bonus_round=3, bonuses=(5, 3, 1), points_right=2,
                    points_wrong=-1, early_resolution=True),
            after_early="fresh", deduction_aid=True)
        for (lang, email), name in zip(READERS.items(), ("Ada", "Bert", "Carmen"), strict=True):
            games.add_player(game, name, email, language=lang)
        games.start_game(game, seed=4)
        return game.id


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_rulebook_and_a_games_rules_read_well_at_both_widths(
        live, ctx, browser, game_id, lang, width):
    _, base = live
    book, ours, changed = HEADINGS[lang]
    page = signed_in_page(browser, base, READERS[lang], {"width": width, "height": 900})
    page.goto(f"{base}/rules")
    expect(page.locator("h1")).to_have_text(book)
    looked_at(page, f"rules-{lang}", width)
    page.goto(f"{base}/games/{game_id}")
    page.click("#game-rules-link")
    expect(page).to_have_url(f"{base}/games/{game_id}/rules")
    expect(page.locator("h1")).to_have_text(f"Chrysoberyl: {ours}")
    expect(page.locator("#rule-points_wrong .this-game")).to_have_text(f"−1 {changed}")
    expect(page.locator("#rule-points_wrong .standard")).to_have_text("−2")
    looked_at(page, f"game-rules-{lang}", width)
    page.context.close()
