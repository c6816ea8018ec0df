"""The turn form on a phone and the notebook, in headless Chromium at 360 and 1280 px.

A player tips by place instead of by gem, fills in last round's tips without a page
load, saves choices and written lines with one button, finds the errors of a refused
text beside it, moves through the grid by keyboard without a row hiding under the
Save bar, and keeps a notebook that is there again after a reload. Screenshots go to
test-artifacts/screenshots/.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from axe_support import check
from browser_support import browser_fixtures, signed_in_page, watch
from browser_support import screenshot as full_page_screenshot
from playwright.sync_api import expect

from vpsleuth.extensions import db
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import auth, games, resolution, turns
from vpsleuth.services import notebook as notebooks

SIZES = {"narrow": {"width": 360, "height": 740}, "wide": {"width": 1280, "height": 900}}
TOUCH = 44  # px: the smallest a target a finger hits may be


live_fixture, browser_fixture, ctx_fixture = browser_fixtures("phone")


def new_game(name: str, rounds: int = 12):
    first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    game = games.create_game(name, weekly(first.strftime("%Y-%m-%d %H:%M"), "Europe/Berlin"),
                             Ruleset(rounds=rounds, first_bonus_round=min(5, rounds)))
    for player in ("Ada", "Ben", "Cleo"):
        games.add_player(game, player, f"{player.lower()}.{game.id}@example.org")
    games.start_game(game, seed=11)
    return game


def page_for(browser, base: str, email: str, size: str, locale: str = "en-GB"):
    """A signed-in page of a browser of its own, watched for script errors."""
    return signed_in_page(browser, base, email, SIZES[size], locale=locale)


def standing(game, name: str) -> dict[str, str]:
    db.session.expire_all()
    tips = turns.standing_turn(game.open_round, games.find_player(game, name)).tips
    return {g.code: loc for g, loc in tips.items()}


def box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def clean(page) -> None:
    assert (page.console_errors, page.failed) == ([], [])


def screenshot(page, name: str, size: str) -> None:
    """A full-page screenshot; the page must not scroll sideways at this width (360 px)."""
    full_page_screenshot(page, name, size)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], f"{name} scrolls sideways at {size}: {width}px"


def accessible(page) -> None:
    """No serious or critical WCAG 2 A/AA violation (axe-core) in the state the page is in."""
    assert check(page).details == []


@pytest.mark.parametrize("size", SIZES)
def test_a_player_tips_by_place_and_the_grid_follows(live, ctx, browser, size):
    _, base = live
    game = new_game(f"By place {size}")
    page = page_for(browser, base, f"ada.{game.id}@example.org", size)
    page.goto(f"{base}/games/{game.id}/turn")
    expect(page.locator("#by-place")).to_be_hidden()
    page.click("#view-place")
    expect(page.locator("#by-gem")).to_be_hidden()
    expect(page.locator("#place-A")).to_have_attribute("aria-pressed", "true")
    page.click("#place-C")
    expect(page.locator("#place-hint")).to_contain_text("you think C holds")
    for gem in ("RD1", "BP2", "YO3"):
        page.click(f"label[for=pick-{gem}]")
    expect(page.locator("#place-count-C")).to_have_text("3")
    page.click("#place-D")
    expect(page.locator("#elsewhere-RD1")).to_have_text("now at C")
    page.click("label[for=pick-RD1]")  # RD1 moves from C to D
    expect(page.locator("#place-count-C")).to_have_text("2")
    page.click("#place-X")
    page.click("label[for=pick-GO2]")
    expect(page.locator("#tip-count")).to_have_text("4")
    expect(page.locator("#unsaved")).to_be_visible()
    screenshot(page, "turn-by-place", size)
    accessible(page)
    page.click("#view-gem")  # the same choices in the grid
    for gem, loc in (("RD1", "D"), ("BP2", "C"), ("YO3", "C"), ("GO2", "X")):
        expect(page.locator(f"#tip-{gem}-{loc}")).to_be_checked()
    page.click("label[for=tip-BP2-none]")
    page.click("#view-place")  # and back: the view remembers its place and sees the change
    page.click("#place-C")
    expect(page.locator("#pick-BP2")).not_to_be_checked()
    page.click("#save-turn")
    expect(page.locator(".flash.ok")).to_contain_text("Your turn for round 1 is saved.")
    assert standing(game, "Ada") == {"RD1": "D", "YO3": "C", "GO2": "X"}
    expect(page.locator("#by-place")).to_be_visible()  # the chosen view is kept
    clean(page)


def test_every_target_of_the_form_is_44_px_on_a_phone(live, ctx, browser):
    _, base = live
    game = new_game("Touch")
    resolution.resolve_round(game)
    page = page_for(browser, base, f"ben.{game.id}@example.org", "narrow")
    page.goto(f"{base}/games/{game.id}/turn")
    page.click("#paste summary")
    small = page.evaluate("""(touch) => {
        const hit = el => el.tagName === 'INPUT' && (el.type === 'radio' || el.type === 'checkbox')
            ? el.labels[0] : el;
        const seen = [];
        for (const el of document.querySelectorAll(
                '#turn-form input:not([type=hidden]), #turn-form select, '
                + '#turn-form button:not([aria-hidden=true]), #turn-form summary, '
                + '#turn-form textarea, .game-nav a')) {
            const target = hit(el);
            const r = target.getBoundingClientRect();
            if (!target.offsetParent) continue;  // not shown (the other view)
            if (r.height < touch || r.width < touch) seen.push(
                (target.id || target.htmlFor || target.textContent.trim()) + ' '
                + Math.round(r.width) + 'x' + Math.round(r.height));
        }
        return seen;
    }""", TOUCH)
    assert small == []
    page.click("#view-place")
    small_chips = page.evaluate("""(touch) => [...document.querySelectorAll(
        '#by-place .place-tab, #by-place .chip-face, #view-switch button')]
        .map(e => e.getBoundingClientRect())
        .filter(r => r.width < touch || r.height < touch).length""", TOUCH)
    assert small_chips == 0
    screenshot(page, "turn-phone-targets", "narrow")
    clean(page)


@pytest.mark.parametrize("size", SIZES)
def test_no_focused_row_hides_under_the_save_bar(live, ctx, browser, size):
    _, base = live
    game = new_game(f"Keyboard {size}")
    page = page_for(browser, base, f"cleo.{game.id}@example.org", size)
    page.goto(f"{base}/games/{game.id}/turn")
    page.focus("#tip-RD1-none")
    hidden = []
    for _ in range(36):
        row = page.evaluate("""() => {
            const input = document.activeElement;
            const row = input.closest('.tip-row');
            const r = row.getBoundingClientRect();
            const bar = document.querySelector('.save-bar').getBoundingClientRect();
            return {id: row.id, bottom: r.bottom, top: r.top, bar: bar.top};
        }""")
        if row["bottom"] > row["bar"] + 0.5 or row["top"] < 0:
            hidden.append(row)
        page.keyboard.press("Tab")  # to the next gem's group of radios
    assert hidden == [], f"{len(hidden)} of 36 focused rows were under the Save bar"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("ArrowRight")  # the last gem, YO3: from "no tip" to A
    expect(page.locator("#tip-YO3-A")).to_be_checked()
    clean(page)


@pytest.mark.parametrize("size", SIZES)
def test_last_rounds_tips_are_filled_in_without_a_reload_and_picks_stay(live, ctx, browser,
                                                                         size):
    _, base = live
    game = new_game(f"Fill in {size}")
    ada = games.find_player(game, "Ada")
    turns.submit_turn(ada, "TIP A RD1, BP2\nTIP X YO3", channel="email")
    resolution.resolve_round(game)
    page = page_for(browser, base, f"ada.{game.id}@example.org", size)
    page.goto(f"{base}/games/{game.id}/turn")
    page.evaluate("() => { window.sameDocument = true; }")
    page.select_option("#q-place", "G")
    page.select_option("#q-size", "2")
    page.click("label[for=tip-RD1-C]")  # picked before filling in: it stays
    page.click("#prefill")
    expect(page.locator("#prefill-note")).to_have_text(
        "Last round's tips are filled in below. They count only once you save. "
        "Gems you had picked already keep your choice: 1.")
    assert page.evaluate("() => window.sameDocument === true"), "the page was loaded again"
    for gem, loc in (("RD1", "C"), ("BP2", "A"), ("YO3", "X")):
        expect(page.locator(f"#tip-{gem}-{loc}")).to_be_checked()
    expect(page.locator("#q-size")).to_have_value("2")
    expect(page.locator("#tip-count")).to_have_text("3")
    screenshot(page, "turn-filled-in", size)
    page.focus("#tip-RD1-C")
    page.keyboard.press("Enter")  # Enter saves; it does not fill in once more
    expect(page.locator(".flash.ok")).to_contain_text("round 2 is saved")
    assert standing(game, "Ada") == {"RD1": "C", "BP2": "A", "YO3": "X"}
    clean(page)


@pytest.mark.parametrize("size", SIZES)
def test_one_save_keeps_the_text_and_shows_its_errors_beside_it(live, ctx, browser, size):
    _, base = live
    game = new_game(f"One save {size}")
    page = page_for(browser, base, f"ben.{game.id}@example.org", size)
    page.goto(f"{base}/games/{game.id}/turn")
    assert page.locator("#turn-form button[type=submit]:visible:not([aria-hidden=true])"
                        ).all_inner_texts() == ["Save turn"], "one button saves the turn"
    assert page.locator("#send-text").count() == 0
    page.click("label[for=tip-GD1-B]")
    page.click("#paste summary")
    page.fill("#turn-text", "QUESTION A red\nTIP C RD1\nTIP H BP2\nTIP X YO9\n")
    page.click("#save-turn")
    # Refused: the errors stand beside the text, in view, and nothing is lost.
    errors, text = page.locator("#text-errors"), page.locator("#turn-text")
    expect(errors).to_contain_text("line 3")
    expect(errors).to_contain_text("line 4")
    expect(errors).to_be_in_viewport()
    expect(text).to_be_focused()
    gap = box(page, "#turn-text")["y"] - (box(page, "#text-errors")["y"]
                                          + box(page, "#text-errors")["height"])
    assert 0 <= gap < 80, f"{gap}px between the errors and the text"
    expect(text).to_have_value("QUESTION A red\nTIP C RD1\nTIP H BP2\nTIP X YO9\n")
    expect(page.locator("#tip-GD1-B")).to_be_checked()
    screenshot(page, "turn-text-errors", size)
    accessible(page)
    page.fill("#turn-text", "QUESTION A red\nTIP C RD1\nTIP H BP2\n".replace("H", "D"))
    page.click("#save-turn")  # the corrected text and the grid, saved together
    expect(page.locator(".flash.ok")).to_contain_text("Your turn for round 1 is saved.")
    assert standing(game, "Ben") == {"GD1": "B", "RD1": "C", "BP2": "D"}
    expect(page.locator("#standing-text")).to_contain_text("QUESTION A red")
    assert page.console_errors == []


def played_rounds(game, rounds: int) -> None:
    """Rounds with questions (some of two attributes) resolved, so the sheet is full."""
    asks = ["E blue", "A cluster diamond", "C red pearl", "G solitaire", "B yellow opal",
            "D pair", "F green", "A opal cluster", "B diamond", "E red solitaire",
            "C yellow", "G pearl pair"]
    ada, ben, cleo = game.players
    for n in range(rounds):
        turns.submit_turn(ada, f"QUESTION {asks[n]}\nTIP A RD1, BP2\nTIP X YO3", channel="web")
        turns.submit_turn(ben, f"QUESTION {asks[-n - 1]}\nTIP C GO1", channel="email")
        if n % 3:
            turns.submit_turn(cleo, f"QUESTION {asks[(n + 5) % 12]}", channel="web")
        resolution.resolve_round(game)


@pytest.mark.parametrize(("size", "locale"), [("narrow", "en-GB"), ("narrow", "de-DE"),
                                              ("wide", "en-GB")])
def test_the_notebook_is_saved_as_one_types_and_is_there_after_a_reload(live, ctx, browser,
                                                                          size, locale):
    _, base = live
    game = new_game(f"Notebook {size} {locale}")
    played_rounds(game, 11)
    page = page_for(browser, base, f"ada.{game.id}@example.org", size, locale)
    if locale == "de-DE":
        page.goto(f"{base}/lang/de")
    page.goto(f"{base}/games/{game.id}/sheet")
    saved = {"en-GB": "Saved", "de-DE": "Gespeichert"}[locale]
    page.click("#cell-RD1-A")  # yes
    page.click("#cell-RD1-B")
    page.click("#cell-RD1-B")  # no
    for _ in range(3):
        page.click("#cell-YO3-X")  # maybe
    page.focus("#cell-BP2-C")  # by keyboard: arrows, then a letter
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("n")  # GP2 at D: no
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")  # GP2 at C: yes
    page.fill("#notes", "E has two blue gems.\nRD1 is at A?")
    expect(page.locator("#notebook-status")).to_contain_text(saved, timeout=10_000)
    expect(page.locator("#notebook-status")).not_to_have_class("failed")
    screenshot(page, f"sheet-notebook-{locale[:2]}", size)
    accessible(page)
    page.reload()
    marks = {"RD1": {"A": "yes", "B": "no"}, "YO3": {"X": "maybe"},
             "GP2": {"C": "yes", "D": "no"}}
    for gem, row in marks.items():
        for loc, mark in row.items():
            expect(page.locator(f"#cell-{gem}-{loc}")).to_have_attribute("data-mark", mark)
    expect(page.locator("#notes")).to_have_value("E has two blue gems.\nRD1 is at A?")
    db.session.expire_all()
    assert notebooks.read(games.find_player(game, "Ada")).marks == marks
    # Every table fits: the page never scrolls sideways (screenshot() checks it too).
    for table in ("#answers", "#notebook-grid", "#my-tips"):
        right = page.evaluate(f"() => document.querySelector('{table}').getBoundingClientRect()"
                              ".right")
        assert right <= SIZES[size]["width"], f"{table} is wider than the page"
    if size == "wide":  # beside the answers
        assert box(page, "#notebook")["x"] > box(page, "#answers")["x"] + 300
        assert abs(box(page, "#notebook")["y"] - box(page, "#answers")["y"]) < 150
    clean(page)


def test_the_notebook_works_without_script_too(live, ctx, browser):
    _, base = live
    game = new_game("Notebook without script")
    context = browser.new_context(viewport=SIZES["narrow"], java_script_enabled=False)
    page = watch(context.new_page())
    token = auth.issue_token(f"ben.{game.id}@example.org")
    db.session.commit()
    page.goto(f"{base}/signin/{token}")
    page.click("#confirm-sign-in")
    page.goto(f"{base}/games/{game.id}/sheet")
    page.fill("#notes", "no script here")
    page.click("#cell-GO1-C")
    expect(page.locator("#cell-GO1-C")).to_have_attribute("data-mark", "yes")
    expect(page.locator("#notes")).to_have_value("no script here")
    assert page.url.endswith("#cell-GO1-C")
    clean(page)


def test_the_turn_form_works_without_script(live, ctx, browser):
    _, base = live
    game = new_game("Turn without script")
    turns.submit_turn(games.find_player(game, "Cleo"), "TIP A RD1\nTIP X YO3", channel="email")
    resolution.resolve_round(game)
    page = watch(browser.new_context(viewport=SIZES["narrow"], java_script_enabled=False)
                 .new_page())
    token = auth.issue_token(f"cleo.{game.id}@example.org")
    db.session.commit()
    page.goto(f"{base}/signin/{token}")
    page.click("#confirm-sign-in")
    page.goto(f"{base}/games/{game.id}/turn")
    expect(page.locator("#by-place")).to_be_hidden()  # the grid is the way without script
    expect(page.locator("#view-switch")).to_be_hidden()
    page.click("label[for=tip-RD1-B]")
    page.click("#paste summary")
    page.fill("#turn-text", "QUESTION C pearl")
    page.click("#prefill")  # a form post: picks and text come back, nothing saved
    expect(page.locator("#prefill-note")).to_contain_text("keep your choice: 1")
    expect(page.locator("#tip-RD1-B")).to_be_checked()
    expect(page.locator("#tip-YO3-X")).to_be_checked()
    expect(page.locator("#turn-text")).to_have_value("QUESTION C pearl")
    assert standing(game, "Cleo") == {}
    page.click("#save-turn")
    expect(page.locator(".flash.ok")).to_contain_text("round 2 is saved")
    assert standing(game, "Cleo") == {"RD1": "B", "YO3": "X"}
    clean(page)
