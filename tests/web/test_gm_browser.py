"""The GM console in a real browser: headless Chromium against a real server.

The app runs in a thread (werkzeug's server on 127.0.0.1 and a free port) on a
temporary SQLite file. The GM signs in through a link, creates a game in the
form, invites two players, starts the game and watches the status board.
Screenshots of the main pages, narrow and wide, go to test-artifacts/screenshots/.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from browser_support import (
    SIZES,
    chromium,
    invite,
    live_sqlite,
    screenshot,
    watch,
)
from playwright.sync_api import expect
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Game, utcnow
from vpsleuth.rules.schedule import to_local
from vpsleuth.services import accounts, auth, turns

GM = "grace@example.org"


@pytest.fixture
def gm_live_server(tmp_path):
    """The app served for real on a free port; yields (app, base URL)."""
    with live_sqlite(tmp_path) as served:
        yield served


@pytest.fixture
def gm_browser_page():
    """A headless Chromium page, watched for console errors and failed responses."""
    with chromium() as browser:
        yield watch(browser.new_page(viewport=SIZES["wide"]))


def shoot(page, url: str, name: str, *, weigh: bool = False) -> dict[str, int]:
    """Screenshots of one page at both sizes (kept when VPSLEUTH_SCREENSHOTS asks); with
    ``weigh``, the PNG's size at each, taken whether kept or not."""
    weights = {}
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(url)
        screenshot(page, f"gm-{name}", size)
        if weigh:
            weights[size] = len(page.screenshot(full_page=True))
    page.set_viewport_size(SIZES["wide"])
    return weights


def test_a_gm_signs_in_creates_a_game_invites_two_players_and_watches_the_board(
        gm_live_server, gm_browser_page):
    app, base = gm_live_server
    page = gm_browser_page
    with app.app_context():
        accounts.create_game_master(GM, "Grace")
        token = auth.issue_token(GM)
        db.session.commit()
        first = to_local(utcnow() + timedelta(days=9), "Europe/Berlin")

    page.goto(f"{base}/signin/{token}")  # the link from the sign-in mail
    page.click("#confirm-sign-in")
    page.goto(f"{base}/gm/")
    expect(page.locator("h1")).to_have_text("Your games")
    page.click("#new-game")

    expect(page.locator("[data-schedule=explicit]")).to_be_hidden()  # gm-console.js
    page.check("input[name=schedule_kind][value=explicit]")
    expect(page.locator("[data-schedule=explicit]")).to_be_visible()
    expect(page.locator("[data-schedule=weekly]")).to_be_hidden()
    page.check("input[name=schedule_kind][value=weekly]")
    page.fill("#name", "Winter Gems")
    page.fill("#first_deadline", first.strftime("%Y-%m-%dT20:00"))
    page.select_option("#timezone", "Europe/Berlin")
    page.fill("#first_bonus_round", "4")
    page.click("#create-game")
    expect(page.locator("h1.game-title")).to_contain_text("Winter Gems")
    expect(page.locator(".flash")).to_contain_text("Game created")

    invite(page, (("Ada", "ada@example.org", "en"), ("Bruno", "bruno@example.org", "de")))

    page.once("dialog", lambda dialog: dialog.accept())  # "Start the game now?"
    page.click("#start-game")
    expect(page.locator("#turns-in")).to_have_text("0 / 2")
    expect(page.locator("#deadline")).to_contain_text("20:00")

    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.name == "Winter Gems"))
        assert (game.state, game.first_bonus_round, game.game_master_id) == ("running", 4, 1)
        turns.submit_turn(game.players[0], "QUESTION E blue opal\nTIP A RD1, B YO3",
                          channel="email")
        game_id = game.id
    page.reload()
    expect(page.locator("#turns-in")).to_have_text("1 / 2")
    expect(page.locator("table.board tr.in")).to_contain_text("Ada")
    assert "RD1" not in page.content()

    shoot(page, f"{base}/gm/", "games")
    shoot(page, f"{base}/gm/games/new", "new-game")
    shoot(page, f"{base}/gm/games/{game_id}", "game")
    board = shoot(page, f"{base}/gm/games/{game_id}/board", "board", weigh=True)
    shoot(page, f"{base}/gm/games/{game_id}/audit", "audit")
    shoot(page, f"{base}/gm/outbox", "outbox")
    shoot(page, f"{base}/gm/games/{game_id}/turn", "turn")
    page.goto(f"{base}/lang/de?next=/gm/")
    expect(page.locator("h1")).to_have_text("Deine Partien")
    shoot(page, f"{base}/gm/games/{game_id}/board", "board-de")
    shoot(page, f"{base}/gm/games/{game_id}", "game-de")
    assert all(board[size] > 10_000 for size in SIZES), board  # a board, not a blank page
    assert page.console_errors == []  # a CSP violation would be one
    assert page.failed == []
