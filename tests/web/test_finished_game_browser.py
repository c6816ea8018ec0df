"""The pages this issue changed, in a real browser at 360 and 1280 px, in English, German
and Spanish: a finished game's result where it is listed, its turn tab, a round report
that closed early, a late turn refused after a redirect, and the GM's audit log in words.

Each page is checked by axe-core (no serious or critical violation) and must not scroll
sideways; screenshots go to test-artifacts/screenshots/ (finished-*-360.png, ...).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from axe_support import check, preload
from browser_support import SCREENSHOTS, browser_fixtures, shoot_once, watch
from playwright.sync_api import Page, expect

from vpsleuth.extensions import db
from vpsleuth.models import utcnow
from vpsleuth.rules import GEMS, Distribution, Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, auth, games, resolution, turns

pytestmark = pytest.mark.walk  # one long walk: handed out early (tests/conftest.py)

WIDTHS = {"360": {"width": 360, "height": 780}, "1280": {"width": 1280, "height": 900}}
LANGS = ("en", "de", "es")
WON = {"en": "won by Ben (9 points)", "de": "gewonnen hat Ben (9 Punkte)",
       "es": "ha ganado Ben (9 puntos)"}
PLACE = {"en": "you: 2nd of 3, 4 points", "de": "du: Platz 2 von 3, 4 Punkte",
         "es": "tú: puesto 2 de 3, 4 puntos"}
EARLY = {"en": "This round closed early", "de": "Diese Runde endete vorzeitig",
         "es": "Esta ronda se cerró antes de tiempo"}
LATE = {"en": "The deadline of round 1 passed at", "de": "Der Abgabetermin von Runde 1 ist am",
        "es": "El plazo de la ronda 1 terminó el"}
RULES = {"en": "6 rounds", "de": "6 Runden", "es": "6 rondas"}

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("finished")


def first_deadline() -> str:
    moment = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    return moment.strftime("%Y-%m-%d %H:%M")


def right_tips(game, count: int) -> str:
    deal = Distribution.from_canonical(game.secret.distribution)
    return "\n".join(f"TIP {deal[gem]} {gem.code}" for gem in GEMS[:count])


def setup(suffix: str):
    """A GM, a finished game that closed early (Ben won, Ada 2nd), and a running one."""
    gina = accounts.create_game_master(f"gina{suffix}@example.org", "Gina")
    finished = games.create_game(f"Opal {suffix}", weekly(first_deadline(), "Europe/Berlin"),
                                 Ruleset(rounds=6, early_resolution=True), game_master_id=gina.id,
                                 actor=f"gina{suffix}@example.org")
    running = games.create_game(f"Late {suffix}", weekly(first_deadline(), "Europe/Berlin"))
    for game in (finished, running):
        for name in ("Ada", "Ben", "Cleo"):
            games.add_player(game, name, f"{name.lower()}{suffix}@example.org")
        games.start_game(game, seed=5)
    for round_number in range(1, 7):  # tips in round 1 only: no bonus points to count
        for name, right in (("Ada", 4), ("Ben", 9), ("Cleo", 0)):
            text = right_tips(finished, right) if right and round_number == 1 else \
                "QUESTION A red"
            turns.submit_turn(games.find_player(finished, name), text, channel="web")
        resolution.resolve_due()
    assert finished.state == "finished"
    return gina, finished, running


def page_for(browser, base: str, email: str, width: str, lang: str) -> Page:
    context = browser.new_context(viewport=WIDTHS[width])
    preload(context)
    page = watch(context.new_page())
    token = auth.issue_token(email)
    db.session.commit()
    page.goto(f"{base}/signin/{token}")
    page.click("#confirm-sign-in")
    page.wait_for_load_state()
    page.goto(f"{base}/lang/{lang}")
    return page


def looked_at(page: Page, name: str, width: str, lang: str) -> None:
    """Screenshot, no sideways scrolling, no serious or critical axe finding, no errors."""
    shoot_once(page, SCREENSHOTS / f"finished-{name}-{lang}-{width}.png", full_page=True)
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= int(width), f"{name} ({lang}) scrolls sideways at {width} px: {scroll}"
    found = check(page)
    assert found.failing == 0, f"{name} ({lang}, {width}): {found.details}"
    assert page.console_errors == [] and page.failed == [], (page.console_errors, page.failed)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_changed_pages_read_well_and_pass_axe_in_three_languages(live, ctx, browser,
                                                                      width):
    _, base = live
    gina, finished, running = setup(width)
    ada_email = f"ada{width}@example.org"
    for lang in LANGS:
        page = page_for(browser, base, ada_email, width, lang)
        page.goto(f"{base}/")
        card = page.locator(f"#game-{finished.id}")
        expect(card).to_contain_text(WON[lang])
        expect(card).to_contain_text(PLACE[lang])
        looked_at(page, "home", width, lang)
        page.goto(f"{base}/games/{finished.id}")
        expect(page.locator("#outcome")).to_contain_text(PLACE[lang])
        looked_at(page, "overview", width, lang)
        page.goto(f"{base}/games/{finished.id}/turn")
        expect(page.locator("#finished")).to_be_visible()
        expect(page.locator("#turn-form")).to_have_count(0)
        looked_at(page, "turn", width, lang)
        page.click("#final-report-link")
        expect(page.locator("#closed-early")).to_contain_text(EARLY[lang])
        looked_at(page, "report", width, lang)
        page.goto(f"{base}/games/{running.id}/turn")
        page.click("#tip-RD1-A + label")
        round_ = running.open_round
        round_.deadline = utcnow() - timedelta(seconds=1)
        db.session.commit()
        page.click("#save-turn")
        page.wait_for_load_state()
        assert "/turn?kept=" in page.url, "the address bar ends on the GET"
        expect(page.locator(".flash.error")).to_contain_text(LATE[lang])
        expect(page.locator("#turn-text")).to_have_value(re.compile(r"^\w+ A RD1\n$"))
        looked_at(page, "late", width, lang)
        round_.deadline = utcnow() + timedelta(days=3)
        db.session.commit()
        page.context.close()
        gm_page = page_for(browser, base, f"gina{width}@example.org", width, lang)
        gm_page.goto(f"{base}/gm/games/{finished.id}/audit")
        expect(gm_page.locator("#audit")).to_contain_text(RULES[lang])
        assert "Ruleset(" not in gm_page.content()
        looked_at(gm_page, "audit", width, lang)
        gm_page.goto(f"{base}/gm/")
        expect(gm_page.locator(f"#outcome-{finished.id}")).to_contain_text(
            WON[lang][0].upper() + WON[lang][1:])
        looked_at(gm_page, "gm-list", width, lang)
        gm_page.context.close()
