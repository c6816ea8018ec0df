"""What the browser tests share: a real server in a thread, headless Chromium, screenshots.

The app is served by werkzeug on 127.0.0.1 and a free port (tests/served.py); Playwright drives
Debian's Chromium (never a browser Playwright downloads). Screenshots go to
test-artifacts/screenshots/.

Which Chromium: the browser tests run in Chromium's own headless shell (Debian's package
chromium-headless-shell, built from the same source as ``chromium``: the same Blink, V8 and
axe-core results, without the desktop browser around them). It is what Playwright itself
runs for headless Chromium. Measured on tests/web (1,155 tests, 2 workers): 811 s with the
full browser, 583 s with the shell; Chromium's CPU in a browser test fell by a third (its
browser process by two thirds). The full browser (``CHROMIUM``) is kept for what only it has:
a desktop to show notices on (tests/web/test_installable_browser.py).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect, sync_playwright
from served import served

from vpsleuth import ROOT, create_app
from vpsleuth.extensions import db
from vpsleuth.services import auth

CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
SIZES = {"narrow": {"width": 390, "height": 844}, "wide": {"width": 1280, "height": 900}}
SIGN_IN_LINK = re.compile(r"https?://\S+/signin/[\w.~-]+")


def serve(app: Flask):
    """Serve ``app`` for real on a free port; yields the base URL (also its BASE_URL)."""
    return served(app, base_url=True)


@contextmanager
def live_sqlite(folder: Path) -> Iterator[tuple[Flask, str]]:
    """A new app on a SQLite file in ``folder``, migrated and served; yields (app, base URL)."""
    from flask_migrate import upgrade

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'vpsleuth.db'}"})
    app.instance_path = str(folder / "instance")
    with app.app_context():
        upgrade()
    try:
        with serve(app) as base:
            yield app, base
    finally:
        with app.app_context():
            db.engine.dispose()


@contextmanager
def chromium() -> Iterator[Browser]:
    """Chromium's headless shell, from Debian's package (see the module's notes)."""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=HEADLESS_SHELL, args=CHROMIUM_ARGS,
                                     headless=True)
        try:
            yield browser
        finally:
            browser.close()


def browser_fixtures(folder: str):
    """The module fixtures ``live``, ``browser`` and ``ctx`` of a browser test module.

    ``live_fixture, browser_fixture, ctx_fixture = browser_fixtures("name")``:
    ``live`` is (app, base URL), the app on a real server with its own SQLite file
    in a temporary folder ``name``; ``browser`` headless Chromium; ``ctx`` an app
    context of the live app for the test's own setup and checks.
    """

    @pytest.fixture(scope="module", name="live")
    def live_fixture(tmp_path_factory):
        with live_sqlite(tmp_path_factory.mktemp(folder)) as served:
            yield served

    @pytest.fixture(scope="module", name="browser")
    def browser_fixture():
        with chromium() as browser:
            yield browser

    @pytest.fixture(name="ctx")
    def ctx_fixture(live):
        app, _ = live
        with app.app_context():
            yield app
            db.session.remove()

    return live_fixture, browser_fixture, ctx_fixture


def watch(page: Page) -> Page:
    """Collect on the page what a person would notice as broken.

    ``page.console_errors``: script errors and Content-Security-Policy refusals;
    ``page.failed``: responses of status 400 or more but the favicon (there is none).
    """
    page.console_errors, page.failed = [], []
    page.on("console", lambda msg: msg.type == "error" and "Failed to load resource"
            not in msg.text and page.console_errors.append(msg.text))
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    page.on("response", lambda r: r.status >= 400 and not r.url.endswith("/favicon.ico")
            and page.failed.append((r.status, r.url)))
    return page


def invite(page: Page, players: tuple[tuple[str, str, str], ...]) -> None:
    """On the GM's game page: invite each (name, email, language), checking each flash."""
    for name, email, language in players:
        page.fill(".invite-form #name", name)
        page.fill(".invite-form #email", email)
        page.select_option(".invite-form #language", language)
        page.click("#invite")
        expect(page.locator(".flash")).to_contain_text(f"{name} is invited")
    expect(page.locator(".player-list .player")).to_have_count(len(players))


def follow_sign_in_link(page: Page, link: str) -> None:
    """Open a sign-in link as from a mail and press the confirm button."""
    page.goto(link)
    page.click("#confirm-sign-in")
    page.wait_for_load_state()


def signed_in_page(browser: Browser, base: str, email: str, viewport: dict,
                   **options) -> Page:
    """A watched page of a browser context of its own, signed in by a fresh link and its button.

    Run it in an app context of the live app (the ``ctx`` fixture): the token is
    committed there, so the server finds it.
    """
    page = watch(browser.new_context(viewport=viewport, **options).new_page())
    token = auth.issue_token(email)
    db.session.commit()
    follow_sign_in_link(page, f"{base}/signin/{token}")
    return page


def sign_in_link(body: str) -> str:
    """The sign-in link in a mail's text."""
    match = SIGN_IN_LINK.search(body)
    assert match, f"no sign-in link in the mail:\n{body}"
    return match.group(0)


_TAKEN: set[Path] = set()
# Screenshots are for a person to look at (README, "Looking at the pages"): the run takes
# them only when asked, VPSLEUTH_SCREENSHOTS=1. Some 360 full-page pictures (PNG-encoded by
# Chromium, 0.05-0.2 s each here) were a minute of the suite's CPU, and in CI no one opens
# them. What a test asserts about a page (its width, axe, its text) does not depend on them.
SHOOT = os.environ.get("VPSLEUTH_SCREENSHOTS", "") not in ("", "0")


def shoot_once(page: Page, target: Path, **options) -> None:
    """A screenshot to ``target`` when screenshots are asked for (SHOOT), taken once a
    run: a test that runs on both databases shows the same page twice, and the second
    picture would only overwrite the first.

    First it waits for the page's load event (its stylesheets applied), taken or not:
    what the callers check next is the layout, and right after a click the new page's
    elements are there before its stylesheet is (the picture used to be that wait).
    """
    page.wait_for_load_state("load")
    if not SHOOT or target in _TAKEN:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(target), **options)
    _TAKEN.add(target)


def screenshot(page: Page, name: str, size: str) -> Path:
    """A full-page screenshot, ``name-size.png``; fails if the page scrolls sideways."""
    target = SCREENSHOTS / f"{name}-{size}.png"
    shoot_once(page, target, full_page=True)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], f"{name} scrolls sideways at {size}: {width}px"
    return target
