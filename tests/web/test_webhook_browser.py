"""The chat webhook on the GM's game page in a real browser: at 360 and 1280 px, in
English, German and Spanish, axe-core clean. The GM is refused a private address (in
their language, what they typed kept), saves the tests' receiver, sends a test message
that the send job delivers to it for real, and reads the result on the page; the
address shows masked. Headless Chromium against a real server.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from axe_support import looked_at
from browser_support import browser_fixtures, signed_in_page
from notices.chat_receiver import ChatReceiver
from playwright.sync_api import expect

from vpsleuth.extensions import db
from vpsleuth.models import GameMaster
from vpsleuth.notices import queue, webhook
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games
from vpsleuth.services.links import base_url

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("webhook")
WORDS = {  # refused, delivered, the test message's title
    "en": ("an address of a private network", "delivered", "a test message from VP-Sleuth"),
    "de": ("einer Adresse in einem privaten Netz", "zugestellt",
           "eine Testnachricht von VP-Sleuth"),
    "es": ("una dirección de una red privada", "entregado", "un mensaje de prueba de VP-Sleuth"),
}


@pytest.fixture(scope="module")
def chat():
    with ChatReceiver() as receiver:
        yield receiver


@pytest.fixture(scope="module")
def game_ids(live):
    """A game per language, each run by a GM who reads that language."""
    app, _ = live
    first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    ids = {}
    with app.app_context():
        for lang in WORDS:
            gm = accounts.create_game_master(f"gm-{lang}@example.org", f"Gail {lang}")
            db.session.get(GameMaster, gm.id).language = lang
            game = games.create_game(f"Jasper {lang}", weekly(first.strftime("%Y-%m-%d %H:%M"),
                                                               "Europe/Berlin"),
                                     language=lang, game_master_id=gm.id)
            games.add_player(game, "Ada", f"ada-{lang}@example.org", language=lang)
            games.start_game(game, seed=5)
            ids[lang] = game.id
        db.session.commit()
    return ids


@pytest.mark.parametrize("lang", list(WORDS))
@pytest.mark.parametrize("width", (360, 1280))
def test_the_gm_saves_tests_and_reads_the_chat_webhook_at_both_widths(
        live, ctx, browser, chat, game_ids, lang, width):
    _, base = live
    refused, delivered, title = WORDS[lang]
    chat.reset()
    page = signed_in_page(browser, base, f"gm-{lang}@example.org", {"width": width,
                                                                    "height": 900})
    page.goto(f"{base}/gm/games/{game_ids[lang]}#webhook")
    looked_at(page, f"webhook-{lang}", width)
    page.fill("#webhook-url", "https://10.0.0.5/hook")
    page.click("#save-webhook")
    expect(page.locator(".flash.error")).to_contain_text(refused)
    expect(page.locator("#webhook-url")).to_have_value("https://10.0.0.5/hook")
    looked_at(page, f"webhook-refused-{lang}", width,
              refused=f"/gm/games/{game_ids[lang]}/webhook")
    page.fill("#webhook-url", chat.url(f"/hooks/{lang}/secret-token-Wx"))
    page.select_option("#webhook-format-select", "matrix")
    page.click("#save-webhook")
    expect(page.locator("#webhook-masked")).to_have_text(f"{chat.url('')}/…n-Wx")
    assert "secret-token" not in page.content()
    page.click("#test-webhook")
    expect(page.locator(".flash.ok")).to_be_visible()
    assert queue.send_due({"webhook": webhook.send}) == 1
    [got] = chat.received
    assert got.path == f"/hooks/{lang}/secret-token-Wx" and title in got.body["text"]
    assert f"{base_url()}/games/{game_ids[lang]}" in got.body["html"]
    page.reload()
    expect(page.locator("#webhook-last")).to_contain_text(delivered)
    expect(page.locator("#webhook-last")).to_contain_text("HTTP 204")
    looked_at(page, f"webhook-delivered-{lang}", width)
    if width == 1280:
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#remove-webhook")
        expect(page.locator("#webhook-masked")).to_have_count(0)
    page.context.close()
