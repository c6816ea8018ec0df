"""The board-by-mail choice on the settings page in a real browser: at 360 and 1280 px, in
English, German and Spanish, axe-core clean, nothing scrolling sideways; the choice is
saved and shown again. Screenshots go to test-artifacts/screenshots/.
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
from vpsleuth.services import games

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("board-settings")
WIDTHS = (360, 1280)
READERS = {"en": "ada@example.org", "de": "bert@example.org", "es": "carmen@example.org"}
WORDS = {"en": ("The game's board by mail", "every post, as it is written", "saved"),
         "de": ("Die Pinnwand des Spiels per Mail", "jeden Beitrag, sobald er geschrieben ist",
                "gespeichert"),
         "es": ("El tablón de la partida por correo", "cada mensaje, en cuanto se escribe",
                "guardad")}


@pytest.fixture(scope="module")
def game_id(live):
    app, _ = live
    with app.app_context():
        first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
        game = games.create_game("Tourmaline", weekly(first.strftime("%Y-%m-%d %H:%M"),
                                                      "Europe/Berlin"))
        for (lang, email), name in zip(READERS.items(), ("Ada", "Bert", "Carmen"), strict=True):
            games.add_player(game, name, email, language=lang)
        games.start_game(game, seed=4)
        return game.id


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_chooses_every_post_by_mail_and_sees_it_kept(live, ctx, browser, game_id,
                                                              lang, width):
    _, base = live
    legend, each, saved = WORDS[lang]
    page = signed_in_page(browser, base, READERS[lang], {"width": width, "height": 900})
    page.goto(f"{base}/settings")
    block = page.locator(f"#game-{game_id}")
    expect(block.locator("fieldset.board-mail legend")).to_have_text(legend)
    expect(block.locator("input[name=board_mail][value=digest]")).to_be_checked()  # default
    looked_at(page, f"board-settings-{lang}", width)
    block.get_by_label(each).check()
    block.locator("button[value=prefs]").click()
    expect(page.locator(".flash.ok")).to_contain_text(saved)
    expect(page.locator(f"#game-{game_id} input[name=board_mail][value=each]")).to_be_checked()
    looked_at(page, f"board-settings-saved-{lang}", width)
    db.session.expire_all()
    seat = next(p for p in games.find_game(game_id).players if p.email == READERS[lang])
    assert seat.board_mail == "each"
    seat.board_mail = "digest"  # for the next width
    db.session.commit()
    page.context.close()
