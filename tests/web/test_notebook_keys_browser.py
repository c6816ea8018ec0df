"""The notebook's marks in the reader's letters: J/N/? in German, S/N/? in Spanish.

Headless Chromium types the letters the legend shows; the marks are stored as
always (yes, no, maybe), and the sheet is looked at in English, German and
Spanish at 360 and 1280 px (screenshots in test-artifacts/screenshots/, axe-core).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from axe_support import check
from browser_support import SCREENSHOTS, browser_fixtures, screenshot, shoot_once, signed_in_page
from playwright.sync_api import expect

from vpsleuth.extensions import db
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, resolution, turns
from vpsleuth.services import notebook as notebooks

SIZES = {"narrow": {"width": 360, "height": 740}, "wide": {"width": 1280, "height": 900}}
# What the legend says in each language, and the keys a reader of it types.
LEGEND = {
    "en": {"yes": ("yes", "Y"), "no": ("no", "N"), "maybe": ("maybe", "M")},
    "de": {"yes": ("ja", "J"), "no": ("nein", "N"), "maybe": ("vielleicht", "?")},
    "es": {"yes": ("sí", "S"), "no": ("no", "N"), "maybe": ("quizá", "?")},
}
SAVED = {"en": "Saved", "de": "Gespeichert", "es": "Guardado"}

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("notebook-keys")


def new_game(name: str):
    first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    game = games.create_game(name, weekly(first.strftime("%Y-%m-%d %H:%M"), "Europe/Berlin"),
                             Ruleset(rounds=12, first_bonus_round=5))
    for player in ("Ada", "Ben"):
        games.add_player(game, player, f"{player.lower()}.{game.id}@example.org")
    games.start_game(game, seed=5)
    ada, ben = game.players
    for ask, other in (("E blue opal", "A cluster diamond"), ("C red pearl", "G pair")):
        turns.submit_turn(ada, f"QUESTION {ask}\nTIP A RD1", channel="web")
        turns.submit_turn(ben, f"QUESTION {other}", channel="web")
        resolution.resolve_round(game)
    return game


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize("size", SIZES)
def test_the_reader_marks_the_notebook_with_the_letters_of_their_language(live, ctx, browser,
                                                                           lang, size):
    _, base = live
    game = new_game(f"Keys {lang} {size}")
    page = signed_in_page(browser, base, f"ada.{game.id}@example.org", SIZES[size])
    page.goto(f"{base}/lang/{lang}")
    page.goto(f"{base}/games/{game.id}/sheet")
    for mark, (word, key) in LEGEND[lang].items():
        expect(page.locator(f"#legend-{mark}")).to_have_text(
            f"{ {'yes': '✓', 'no': '✗', 'maybe': '?'}[mark]} {word} {key}".strip())
    page.focus("#cell-RD1-A")
    page.keyboard.press(LEGEND[lang]["yes"][1])
    page.focus("#cell-RD1-B")
    page.keyboard.press(LEGEND[lang]["no"][1])
    page.focus("#cell-YO3-X")
    page.keyboard.press(LEGEND[lang]["maybe"][1])
    expect(page.locator("#cell-RD1-A")).to_have_attribute("data-mark", "yes")
    expect(page.locator("#notebook-status")).to_contain_text(SAVED[lang], timeout=10_000)
    db.session.expire_all()
    marks = {"RD1": {"A": "yes", "B": "no"}, "YO3": {"X": "maybe"}}
    player = games.find_player(game, "Ada")
    assert notebooks.read(player).marks == marks
    assert notebooks.read(player).grid.count("y") == 1  # stored as always: y, n, m
    hint = page.locator("#notebook-hint").inner_text()
    assert all(f"{key}," in hint or f"{key} " in hint for _, key in LEGEND[lang].values())
    screenshot(page, f"sheet-marks-{lang}", size)
    page.evaluate("() => document.getElementById('answers-heading').scrollIntoView()")
    shoot_once(page, SCREENSHOTS / f"sheet-marks-{lang}-{size}-view.png")
    assert check(page).details == []
    assert (page.console_errors, page.failed) == ([], [])
