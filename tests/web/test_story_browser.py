"""The game told afterwards in Chromium: phone and desktop, English, German, Spanish.

The story page of story_support's ended game, with its bits detail opened, at
360 and 1280 px in each language: no sideways scrolling, no serious or
critical axe-core finding; and the final report's HTML at both widths.
Screenshots go to test-artifacts/screenshots/story-*.png.
"""

from __future__ import annotations

import pytest
from axe_support import check
from browser_support import SCREENSHOTS, browser_fixtures, shoot_once, watch
from sqlalchemy import select
from story_support import READERS, ended_game

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage
from vpsleuth.services import auth

live, browser, ctx = browser_fixtures("story-words")
WIDTHS = {"360": {"width": 360, "height": 800}, "1280": {"width": 1280, "height": 900}}


@pytest.fixture(scope="module")
def game_id(live) -> int:
    """The ended game of story_support on the live server, its story told."""
    app, _ = live
    with app.app_context():
        game_id = ended_game().id
        db.session.remove()
    return game_id


def shot(page, name: str, width: str) -> None:
    shoot_once(page, SCREENSHOTS / f"{name}-{width}.png", full_page=True)
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= WIDTHS[width]["width"], f"{name} scrolls sideways at {width}: {scroll}px"


def test_the_story_reads_well_on_phone_and_desktop_in_three_languages(live, browser, ctx,
                                                                      game_id):
    _, base = live
    findings = {}
    for lang in READERS:
        for width, viewport in WIDTHS.items():
            page = watch(browser.new_context(viewport=viewport).new_page())
            token = auth.issue_token(READERS["en"][1])
            db.session.commit()
            page.goto(f"{base}/signin/{token}")
            page.click("#confirm-sign-in")
            page.wait_for_load_state()
            page.goto(f"{base}/lang/{lang}")
            page.goto(f"{base}/games/{game_id}/story")
            page.click("#story-bits summary")
            assert page.locator("#story-bits-table").is_visible()
            shot(page, f"story-{lang}", width)
            found = check(page)
            findings[lang, width] = found.details
            assert page.console_errors == [] and page.failed == []
            page.context.close()
    assert all(details == [] for details in findings.values()), findings


def test_the_final_reports_story_reads_well_on_phone_and_desktop(browser, ctx, game_id):
    for lang, (_, email) in READERS.items():
        html = db.session.scalars(select(OutboxMessage).where(
            OutboxMessage.game_id == game_id, OutboxMessage.to_addr == email,
            OutboxMessage.kind == "final_report")).one().body_html
        for width, viewport in WIDTHS.items():
            page = browser.new_context(viewport=viewport).new_page()
            page.set_content(html)
            shot(page, f"story-mail-{lang}", width)
            page.context.close()
