"""At a glance, in a real browser at 360 and 1280 px: the games list, who has sent a turn,
early resolution in the players' words, and the GM's "Resolve now" naming who has not.

Screenshots go to test-artifacts/screenshots/ (glance-*-360.png, glance-*-1280.png).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from browser_support import SCREENSHOTS, browser_fixtures, shoot_once, signed_in_page
from playwright.sync_api import Page, expect

from vpsleuth.extensions import db
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games, gm, resolution, turns

WIDTHS = {"360": {"width": 360, "height": 780}, "1280": {"width": 1280, "height": 900}}


live_fixture, browser_fixture, ctx_fixture = browser_fixtures("glance")


def new_game(name: str, gm_id: int | None, rules: Ruleset | None = None):
    first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    game = games.create_game(name, weekly(first.strftime("%Y-%m-%d %H:%M"), "Europe/Berlin"),
                             rules, game_master_id=gm_id)
    for player in ("Ada", "Ben", "Cleo"):
        games.add_player(game, player, f"{player.lower()}@example.org")
    games.start_game(game, seed=5)
    return game


def signed_in(browser, base: str, email: str, width: str) -> Page:
    """A fresh page at ``width``, signed in by a link as a person would."""
    return signed_in_page(browser, base, email, WIDTHS[width])


def shot(page: Page, name: str, width: str) -> None:
    """A full-page screenshot; the page must not scroll sideways."""
    shoot_once(page, SCREENSHOTS / f"glance-{name}-{width}.png", full_page=True)
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= int(width), f"{name} scrolls sideways at {width} px: {scroll}px"


def turn_of(game, name: str, text: str) -> None:
    turns.submit_turn(games.find_player(game, name), text, channel="email")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_player_reads_the_games_list_and_early_resolution_at_a_glance(live, ctx, browser,
                                                                         width):
    _, base = live
    gina = accounts.create_game_master(f"gina{width}@example.org", "Gina")
    swift = new_game(f"Swift {width}", gina.id, Ruleset(early_resolution=True))
    gm.set_after_early(swift, "fresh", actor=gina.email)
    calm = new_game(f"Calm {width}", None)
    turn_of(swift, "Ben", "QUESTION E blue opal\nTIP A RD1")

    page = signed_in(browser, base, "ada@example.org", width)
    assert page.url == f"{base}/"
    swift_card, calm_card = page.locator(f"#game-{swift.id}"), page.locator(f"#game-{calm.id}")
    expect(swift_card).to_contain_text("Round 1 of 12")
    expect(swift_card.locator(".badge.turn-due")).to_have_text("Your turn is due")
    expect(swift_card.locator(".sent-count")).to_have_text("1 of 3 sent")
    expect(swift_card.locator(".time-left")).to_contain_text("left")
    expect(swift_card.locator("time.localised")).to_have_count(1)  # in the browser's zone
    expect(calm_card.locator(".sent-count")).to_have_text("0 of 3 sent")
    shot(page, "games", width)

    swift_card.locator("h2 a").click()
    expect(page.locator("#early-note")).to_have_text(
        "The round closes as soon as everyone has sent a turn; a change after that is too late.")
    expect(page.locator("#rule-round-end")).to_have_text(
        "as soon as every player has sent a turn, at the latest at the deadline")
    expect(page.locator("#rule-after-early")).to_have_text(
        "the next round gets a whole interval from the close")
    rows = page.locator("#turns-in li")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Ada (you) – not yet")
    expect(rows.nth(1)).to_contain_text("Ben ✓ sent")
    expect(page.locator("#turns-in")).not_to_contain_text("blue opal")
    shot(page, "overview", width)

    page.click("#enter-turn")
    expect(page.locator("#early-note")).to_be_visible()
    expect(page.locator("#change-note")).to_have_text(
        "The round closes as soon as everyone has sent a turn.")
    shot(page, "turn-form", width)

    turn_of(swift, "Ada", "TIP B GO3")
    page.goto(f"{base}/")
    expect(swift_card.locator(".badge.turn-in")).to_have_text("✓ Your turn is in")
    expect(swift_card.locator(".sent-count")).to_have_text("2 of 3 sent")

    # Cleo's turn closes the round at once; round 2 gets a whole week from now.
    turn_of(swift, "Cleo", "QUESTION A red")
    assert [r.number for r in resolution.resolve_due()] == [1]
    page.reload()
    expect(swift_card).to_contain_text("Round 2 of 12")
    expect(swift_card.locator(".time-left")).to_have_text(
        re.compile(r"^(7 days|6 days 23 hours) left$"))
    expect(swift_card.locator(".sent-count")).to_have_text("0 of 3 sent")
    expect(swift_card).to_contain_text("Latest report: Round 1")
    shot(page, "games-round-2", width)
    assert page.console_errors == [] and page.failed == []


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_game_master_lands_on_the_console_and_resolve_now_names_who_is_missing(
        live, ctx, browser, width):
    _, base = live
    gail = accounts.create_game_master(f"gail{width}@example.org", "Gail")
    game = new_game(f"Board {width}", gail.id)
    turn_of(game, "Ben", "TIP A RD1")

    page = signed_in(browser, base, gail.email, width)
    assert page.url == f"{base}/gm/"
    page.goto(f"{base}/gm/games/{game.id}/board")
    expect(page.locator("#not-in")).to_have_text(
        "No turn yet from: Ada, Cleo. They score nothing this round.")
    shot(page, "gm-board", width)
    questions = []
    page.on("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.click("#resolve")
    assert questions == ["Resolve this round now? No turn yet from Ada, Cleo: they score "
                         "nothing this round. This cannot be undone."]
    db.session.expire_all()
    assert game.round(1).state == "open"  # dismissed: nothing happened

    resolution.resolve_round(game, actor=gail.email, number=1)
    ada = signed_in(browser, base, "ada@example.org", width)
    ada.goto(f"{base}/games/{game.id}/rounds/1")
    expect(ada.locator("#no-turn-note")).to_have_text(
        "No turn: this player sent no turn this round, so no tips were scored.")
    shot(ada, "report-no-turn", width)
    assert page.console_errors == [] and ada.console_errors == []
