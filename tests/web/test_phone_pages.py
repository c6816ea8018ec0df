"""The players' pages on a phone, in headless Chromium at 360 px (and 1280 px).

The standings and a report's results and history keep each player's name and total
in view while the rounds scroll between them, with a cue while there is more to see;
no page scrolls sideways. Every link, button and field a finger can hit is at least
24 by 24 CSS px (WCAG 2.2 AA, 2.5.8) unless it is a link inside a sentence: 2.5.8
would also pass a smaller target with 24 px of room around it, as axe-core does,
but a finger is better served by the target itself. The main action of each page
is 44 px high. The app is the suite's ``app`` (SQLite and PostgreSQL) on a real port;
screenshots go to test-artifacts/screenshots/phone-*.png.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from browser_support import SCREENSHOTS, chromium, serve, shoot_once, signed_in_page

from vpsleuth.extensions import db
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games, resolution, turns

PHONE, WIDE = {"width": 360, "height": 740}, {"width": 1280, "height": 900}
MINIMUM, MAIN = 24, 44  # px: WCAG 2.5.8, and the main actions
GM = "gail@example.org"
# Long names, as people give them: the tables must still fit a phone.
NAMES = {"Ada": "ada@example.org", "Bartholomew Featherstonehaugh": "bart@example.org",
         "Maximiliane von Hohenstein": "max@example.org", "Cleo": "cleo@example.org"}
ASKS = ["E blue", "A cluster diamond", "C red pearl", "G solitaire", "B yellow opal", "D pair",
        "F green", "A opal cluster", "B diamond", "E red solitaire", "C yellow"]

# Every element a finger can hit, with the box it is hit in (a hidden radio's label),
# less what is not shown, and whether it is a link in a sentence.
TARGETS = """() => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  const hit = el => el.tagName === 'INPUT' && (el.type === 'radio' || el.type === 'checkbox')
      && getComputedStyle(el).opacity === '0' ? el.labels[0] : el;
  const shown = el => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 1 && r.height > 1 && s.visibility !== 'hidden'
      && !el.closest('[aria-hidden=true], .sr-only') && r.right > 0;
  };
  // WCAG 2.5.8's inline exception: a link with words of the sentence right beside it.
  const words = node => node && /[\\p{L}]{2,}/u.test(node.textContent);
  const inSentence = el => el.tagName === 'A' && getComputedStyle(el).display === 'inline'
      && (words(el.previousSibling) || words(el.nextSibling));
  return [...document.querySelectorAll(sel)].map(hit).filter(Boolean).filter(shown)
    .map(el => { const r = el.getBoundingClientRect();
      return {name: el.id || el.getAttribute('for') || el.textContent.trim().slice(0, 30),
              width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10,
              inSentence: inSentence(el)}; });
}"""

# For each row of a table: where its name and its total are (the last cell).
ROWS = """(table) => [...document.querySelectorAll(table + ' tbody tr')].map(tr => {
  const name = tr.querySelector('.name'), total = tr.lastElementChild;
  const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.right]; };
  // what a finger finds at the cell's middle: the cell itself, not a round over it
  const over = el => { const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return el.contains(top) ? null : (top ? top.outerHTML.slice(0, 60) : 'nothing'); };
  return {name: name.textContent.trim(), at: box(name), total: box(total),
          covered: over(name) || over(total)};
})"""


@pytest.fixture
def world(app):
    """Gail runs two games for four players: "Long Court", with eleven of twelve rounds
    played, and "Short Court", ended after two."""
    gail = accounts.create_game_master(GM, "Gail")
    running = _game("Long Court", gail, Ruleset())
    for n in range(11):
        _play(running, n)
    ended = _game("Short Court", gail, Ruleset(rounds=2, first_bonus_round=1))
    for n in range(2):
        _play(ended, n)
    db.session.commit()
    with serve(app) as base, chromium() as browser:
        yield base, browser, running, ended


def _game(name, gail, rules):
    game = games.create_game(name, _weekly(), rules, actor=GM, game_master_id=gail.id)
    for player, email in NAMES.items():
        games.add_player(game, player, email, actor=GM)
    games.start_game(game, seed=5, actor=GM)
    return game


def _weekly():
    first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    return weekly(first.strftime("%Y-%m-%d %H:%M"), "Europe/Berlin")


def _play(game, n: int) -> None:
    ada, bart, maxi, _ = game.players
    turns.submit_turn(ada, f"QUESTION {ASKS[n]}\nTIP A RD1, BP2\nTIP X YO3", channel="web")
    turns.submit_turn(bart, f"QUESTION {ASKS[-n - 1]}\nTIP C GO1", channel="email")
    if n % 3:
        turns.submit_turn(maxi, f"QUESTION {ASKS[(n + 5) % 11]}", channel="web")
    resolution.resolve_round(game)


def page_for(browser, base: str, lang: str, viewport: dict, email: str = "ada@example.org"):
    page = signed_in_page(browser, base, email, viewport)
    page.goto(f"{base}/lang/{lang}")
    return page


def page_width(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def shoot(page, name: str) -> None:
    """A full-page screenshot, ``phone-<name>-<width>.png``."""
    width = page.viewport_size["width"]
    shoot_once(page, SCREENSHOTS / f"phone-{name}-{width}.png", full_page=True)


LANGUAGES = ("en", "de", "es")


def test_names_and_totals_stay_in_view_while_the_rounds_scroll_on_a_phone(world):
    base, browser, running, _ = world
    tables = ((f"/games/{running.id}/standings", "#standings"),
              (f"/games/{running.id}/rounds/11", "#history"),
              (f"/games/{running.id}/rounds/11", "#results"))
    page = page_for(browser, base, "en", PHONE)
    for lang in LANGUAGES:
        page.set_viewport_size(PHONE)
        page.goto(f"{base}/lang/{lang}")
        for path, table in tables:
            page.goto(base + path)
            assert page_width(page) <= 360, f"{path} scrolls sideways in {lang}"
            wrap = page.locator(table).locator("xpath=..")
            overflow = wrap.evaluate("w => w.scrollWidth - w.clientWidth")
            if table != "#results":
                assert overflow > 0, "eleven rounds are meant to need more than a phone's width"
            assert page.locator(f"{table}-cue").is_visible() == (overflow > 0), (
                f"{table} in {lang}: the cue does not say whether the table scrolls")
            wrap.evaluate("w => w.scrollIntoView({block: 'center'})")
            for scrolled in (0, overflow // 2, overflow):
                wrap.evaluate("(w, x) => { w.scrollLeft = x; }", scrolled)
                rows = page.evaluate(ROWS, table)
                assert sorted(r["name"] for r in rows) == sorted(NAMES)
                for row in rows:
                    where = (path, lang, scrolled, row)
                    assert row["at"][0] >= 0 and row["total"][1] <= 360, where
                    assert row["at"][1] <= row["total"][0], where
                    assert row["covered"] is None, where
            wrap.evaluate("w => { w.scrollLeft = 0; }")
            shoot(page, f"{table[1:]}-{lang}")
        page.set_viewport_size(WIDE)
        for path, table in tables:
            page.goto(base + path)
            assert not page.locator(f"{table}-cue").is_visible(), (
                "a cue on a table that does not scroll")
            shoot(page, f"{table[1:]}-{lang}")


def main_pages(running, ended) -> dict[str, str]:
    g, e = running.id, ended.id
    return {"home": "/", "overview": f"/games/{g}", "turn": f"/games/{g}/turn",
            "sheet": f"/games/{g}/sheet", "report": f"/games/{g}/rounds/11",
            "standings": f"/games/{g}/standings", "reports": f"/games/{g}/rounds",
            "final report": f"/games/{e}/rounds/2", "settings": "/settings",
            "rules": "/rules", "mail help": "/help/mail", "open games": "/games/open"}


def gm_pages(running) -> dict[str, str]:
    g = running.id
    return {"gm games": "/gm/", "gm game": f"/gm/games/{g}", "gm board": f"/gm/games/{g}/board",
            "gm turn": f"/gm/games/{g}/turn", "gm new game": "/gm/games/new",
            "gm audit": f"/gm/games/{g}/audit", "gm outbox": "/gm/outbox"}


# The one thing each page is for: at least 44 px high on a phone.
MAIN_ACTIONS = {"overview": "#enter-turn", "turn": "#save-turn",
                "settings": "button[value=prefs]", "final report": ".verify-form button",
                "sign in": "form.stack button[type=submit]"}


def measure(page, name: str, lang: str) -> tuple[list[str], list[str]]:
    """Targets under 24 px with no exception, and main actions under 44 px high."""
    assert page_width(page) <= 360, f"{name} scrolls sideways in {lang}"
    small = [f"{name} ({lang}): {t['name']} {t['width']}x{t['height']}"
             for t in page.evaluate(TARGETS) if not t["inSentence"]
             and (t["width"] < MINIMUM or t["height"] < MINIMUM)]
    low = []
    if name in MAIN_ACTIONS:
        heights = page.locator(MAIN_ACTIONS[name]).evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().height)")
        assert heights, f"no main action on {name}"
        low = [f"{name} ({lang}): {h:.0f} px" for h in heights if h < MAIN - 0.5]
    shoot(page, f"targets-{name.replace(' ', '-')}-{lang}")
    page.set_viewport_size(WIDE)  # the same page as a desktop shows it, to be looked at
    shoot(page, f"targets-{name.replace(' ', '-')}-{lang}")
    page.set_viewport_size(PHONE)
    return small, low


def test_every_target_is_at_least_24_px_and_the_main_actions_44_on_a_phone(world):
    base, browser, running, ended = world
    page = page_for(browser, base, "en", PHONE)
    visitor = browser.new_context(viewport=PHONE).new_page()
    gm = page_for(browser, base, "en", PHONE, GM)
    too_small, low = [], []
    for lang in LANGUAGES:
        page.goto(f"{base}/lang/{lang}")
        for name, path in main_pages(running, ended).items():
            page.goto(base + path)
            if name == "turn":
                page.click("#paste summary")
            small, short = measure(page, name, lang)
            too_small, low = too_small + small, low + short
        visitor.goto(f"{base}/lang/{lang}")
        for name, path in (("sign in", "/signin"), ("welcome", "/")):
            visitor.goto(base + path)
            small, short = measure(visitor, name, lang)
            too_small, low = too_small + small, low + short
        gm.goto(f"{base}/lang/{lang}")
        for name, path in gm_pages(running).items():
            gm.goto(base + path)
            small, short = measure(gm, name, lang)
            too_small, low = too_small + small, low + short
    assert too_small == [], f"{len(too_small)} targets under 24x24 px:\n" + "\n".join(too_small)
    assert low == [], f"main actions under {MAIN} px high: {low}"
