"""The game's board in a real browser: at 360 and 1280 px, in English, German and
Spanish, axe-core clean, nothing scrolling sideways (a long link wraps); a post is
written, shown as plain text and deleted after the question; the GM hides one after
the question. Headless Chromium against a real server; screenshots go to
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
from vpsleuth.models import BoardPost
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, board, games

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("board")
WIDTHS = (360, 1280)
GM = "gail@example.org"
READERS = {"en": "ada@example.org", "de": "bert@example.org", "es": "carmen@example.org"}
WORDS = {"en": ("Board", "Announcement", "Hidden by the game master.",
                "Your post is on the board."),
         "de": ("Pinnwand", "Ankündigung", "Von der Spielleitung ausgeblendet.",
                "Dein Beitrag steht an der Pinnwand."),
         "es": ("Tablón", "Anuncio", "Ocultado por el director de juego.",
                "Tu mensaje está en el tablón.")}
LONG_LINK = "https://example.org/" + "a-very-long-path-segment-" * 8 + "end"


@pytest.fixture(scope="module")
def game_id(live):
    app, _ = live
    with app.app_context():
        gail = accounts.create_game_master(GM, "Gail")
        first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
        game = games.create_game("Spinel", weekly(first.strftime("%Y-%m-%d %H:%M"),
                                                  "Europe/Berlin"), game_master_id=gail.id)
        for (lang, email), name in zip(READERS.items(), ("Ada", "Bert", "Carmen"), strict=True):
            games.add_player(game, name, email, language=lang)
        games.start_game(game, seed=4)
        ada, bert, _ = game.players
        board.post(game, f"Read this: {LONG_LINK}\n<script>alert(1)</script>", player=bert,
                   channel="web")
        board.hide(board.post(game, "something rude", player=ada, channel="web"), actor=GM)
        board.announce(game, "Round 2 runs a day longer.", actor=GM, channel="cli")
        return game.id


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_reads_posts_and_deletes_their_own_at_both_widths(
        live, ctx, browser, game_id, lang, width):
    _, base = live
    title, pinned, hidden, posted = WORDS[lang]
    page = signed_in_page(browser, base, READERS[lang], {"width": width, "height": 900})
    page.goto(f"{base}/games/{game_id}")
    page.click("#board-link")
    expect(page).to_have_url(f"{base}/games/{game_id}/board")
    expect(page.locator("h1")).to_contain_text(title)
    first = page.locator(".board-post").first
    expect(first).to_contain_text("Round 2 runs a day longer.")
    expect(first.locator(".pinned-badge")).to_have_text(pinned)
    expect(page.locator(".post-gone", has_text=hidden)).to_have_count(1)
    expect(page.locator("a", has_text="a-very-long-path")).to_have_count(0)  # text, no link
    expect(page.locator(".post-body", has_text="<script>alert(1)</script>")).to_have_count(1)
    looked_at(page, f"board-{lang}", width)
    page.fill("#board-body", f"Hello from {lang} at {width}\nsecond line")
    page.click("#board-send")
    expect(page.locator(".flash.ok")).to_have_text(posted)
    mine = page.locator(".board-post", has_text=f"Hello from {lang} at {width}")
    expect(mine.locator(".post-body")).to_have_text(f"Hello from {lang} at {width}\nsecond line")
    looked_at(page, f"board-posted-{lang}", width)
    page.once("dialog", lambda dialog: dialog.accept())
    mine.locator("button[id^=delete-]").click()
    expect(page.locator(".board-post", has_text=f"Hello from {lang} at {width}")).to_have_count(0)
    page.wait_for_load_state("load")  # its scripts read to the end before the browser goes
    page.context.close()


def test_the_gm_hides_a_post_after_the_question(live, ctx, browser, game_id):
    _, base = live
    page = signed_in_page(browser, base, GM, {"width": 360, "height": 900})
    page.goto(f"{base}/gm/games/{game_id}")
    looked_at(page, "board-gm-console", 360)
    page.click("#gm-board-link")
    target = page.locator(".board-post", has_text="Read this:")
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    # The click can return before the dialog's event is handed to this process: wait for it.
    with page.expect_event("dialog"):
        target.locator("button[id^=hide-]").click()
    assert questions and questions[0].startswith("Hide this post?")
    expect(target.locator(".post-gone")).to_have_count(0)  # dismissed: nothing happened
    page.once("dialog", lambda dialog: dialog.accept())
    target.locator("button[id^=hide-]").click()
    expect(page.locator(".flash.ok")).to_contain_text("The post is hidden")
    looked_at(page, "board-gm", 360)
    db.session.rollback()
    assert db.session.query(BoardPost).filter(BoardPost.hidden_at.is_not(None)).count() == 2
    page.context.close()
