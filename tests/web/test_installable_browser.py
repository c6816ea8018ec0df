"""The installable app in Chromium: the manifest parses and its icons load, the service
worker controls the site, a push message becomes a notice, a click on the notice opens
its page, and no page with a turn is kept for offline use.

One Chromium for the module, with a profile of its own (a persistent context: Chromium
hands a notification click to the service worker only for a real profile, not for the
throwaway contexts of the other browser tests), on a private D-Bus session bus whose
desktop notification service (notification_daemon.py) shows what Chromium sends it and
clicks it as a person would. The push message itself is delivered through the DevTools
protocol (ServiceWorker.deliverPushMessage), as a push service would deliver it.
"""

from __future__ import annotations

import json
import os
import time

import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS, follow_sign_in_link, live_sqlite
from conftest import gm_deadline
from notification_daemon import notification_server
from playwright.sync_api import Error, sync_playwright

from vpsleuth.extensions import db
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import auth, games

ADA = "ada@example.org"
NOTICES = "() => navigator.serviceWorker.ready.then(r => r.getNotifications())"
SHOWN = NOTICES + (".then(ns => ns.map(n => ({title: n.title, body: n.body, tag: n.tag, "
                   "data: n.data})))")


@pytest.fixture(scope="module")
def desktop():
    with notification_server() as served:
        yield served


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    with live_sqlite(tmp_path_factory.mktemp("installable")) as served:
        app, _ = served
        with app.app_context():
            game = games.create_game("Tourmaline", weekly_from_now())
            games.add_player(game, "Ada", ADA)
            games.add_player(game, "Ben", "ben@example.org")
            games.start_game(game, seed=3)
            app.config["TEST_GAME_ID"] = game.id
            db.session.commit()
        yield served


def weekly_from_now():
    return weekly(gm_deadline(3), "Europe/Berlin")


@pytest.fixture(scope="module")
def chromium(live, desktop, tmp_path_factory):
    """Chromium with a profile of its own, signed in as Ada, notifications allowed."""
    app, base = live
    bus, _ = desktop
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")), executable_path=CHROMIUM,
            args=CHROMIUM_ARGS, headless=True, env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": bus})
        context.grant_permissions(["notifications"], origin=base)
        page = context.pages[0] if context.pages else context.new_page()
        with app.app_context():
            token = auth.issue_token(ADA)
            db.session.commit()
        follow_sign_in_link(page, f"{base}/signin/{token}")
        try:
            yield context, page
        finally:
            context.close()


def showing(page, expected: list[dict]) -> None:
    """The site's notices on screen are ``expected`` (title, body, tag, data): read once.

    Called only once the desktop has the notice (``PushService.deliver`` waits for its
    Notify call), never while one is being shown: Chromium's getNotifications() deletes
    from its database every stored notice its desktop bridge does not list yet, unless
    it was created after the read began. A read in that moment leaves the notice on
    screen with no data behind it, and Chromium then answers a click on it by closing
    it, without a notificationclick (content/browser/notifications,
    platform_notification_context_impl.cc). Polling here lost one click run in four on
    a loaded machine.
    """
    assert page.evaluate(SHOWN) == expected


def active_worker(page) -> dict:
    """The registration once its worker is active: scope and state."""
    page.wait_for_function("() => navigator.serviceWorker.ready.then(r => r.active && "
                           "r.active.state === 'activated')", timeout=10_000)
    return page.evaluate("() => navigator.serviceWorker.ready.then(r => ({scope: r.scope, "
                         "state: r.active.state, script: r.active.scriptURL}))")


def test_the_manifest_parses_its_icons_load_and_the_worker_controls_the_site(live, chromium):
    _, base = live
    context, page = chromium
    page.goto(f"{base}/")
    cdp = context.new_cdp_session(page)
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["url"] == f"{base}/manifest.webmanifest" and parsed["errors"] == []
    manifest = json.loads(parsed["data"])
    assert (manifest["display"], manifest["scope"], manifest["start_url"]) == (
        "standalone", "/", "/")
    sizes = page.evaluate("""icons => Promise.all(icons.map(icon => fetch(icon.src)
        .then(r => r.blob().then(b => createImageBitmap(b))
        .then(bitmap => [r.status, r.headers.get('Content-Type'),
                         bitmap.width + 'x' + bitmap.height]))))""", manifest["icons"])
    assert sizes == [[200, "image/png", icon["sizes"]] for icon in manifest["icons"]]
    assert active_worker(page) == {"scope": f"{base}/", "state": "activated",
                                   "script": f"{base}/sw.js"}
    cdp.detach()


class PushService:
    """Delivers push messages to the site's worker through the DevTools protocol, as a push
    service delivers them to a browser: one protocol session for the test."""

    def __init__(self, context, page, base: str, desktop) -> None:
        self.page, self.base, self.desktop = page, base, desktop
        self.cdp = context.new_cdp_session(page)
        registrations: dict[str, str] = {}
        self.cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.update(
            {r["scopeURL"]: r["registrationId"] for r in event["registrations"]}))
        self.cdp.send("ServiceWorker.enable")  # Chromium answers with its registrations
        deadline = time.monotonic() + 10
        while f"{base}/" not in registrations and time.monotonic() < deadline:
            page.wait_for_timeout(20)  # lets Playwright take in the protocol's events
        assert f"{base}/" in registrations, registrations
        self.registration = registrations[f"{base}/"]

    def deliver(self, notice: dict):
        """Deliver ``notice`` and return it as the desktop shows it, once it does.

        Waited for at the desktop's notification service, not by asking the page (see
        ``showing``): the worker's notice is stored before Chromium hands it over.
        """
        self.cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": self.base, "registrationId": self.registration,
            "data": json.dumps(notice)})
        return self.desktop.wait_for(notice["title"], notice["body"])


def click_and_open(context, page, server, shown, url: str, timeout: float = 20.0):
    """Click ``shown`` and return the tab its worker opened at ``url``.

    The tabs are collected from the click on, and waited for apart from the click: a
    click Chromium dropped and a click whose page never came fail with messages of
    their own (``expect_page`` around the click hid the first behind its own timeout).
    """
    opened: list = []

    def collect(tab) -> None:
        opened.append(tab)

    context.on("page", collect)
    try:
        server.click_until_closed(shown)  # the worker's handler ran: it closes the notice
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [tab for tab in opened if tab.url == url]
            if found:
                found[0].wait_for_load_state()
                return found[0]
            page.wait_for_timeout(50)  # lets Playwright take in the new tab's events
    finally:
        context.remove_listener("page", collect)
    raise AssertionError(f"the notice was closed but no tab opened at {url}; "
                         f"tabs opened: {[tab.url for tab in opened]}; "
                         f"the desktop's calls: {server.calls()}")


def test_a_push_message_is_shown_as_a_notice_and_a_click_opens_its_page(live, chromium,
                                                                        desktop):
    app, base = live
    context, page = chromium
    _, server = desktop
    game_id = app.config["TEST_GAME_ID"]
    page.goto(f"{base}/")
    active_worker(page)
    tag = f"game-{game_id}"
    service = PushService(context, page, base, server)
    shown = service.deliver({"title": "Tourmaline: round 1 is open",
                             "body": "Send your turn by Friday.", "url": f"/games/{game_id}",
                             "tag": tag})
    showing(page, [{"title": "Tourmaline: round 1 is open", "body": "Send your turn by Friday.",
                    "tag": tag, "data": {"url": f"{base}/games/{game_id}"}}])
    assert [n.summary for n in server.shown if not n.closed] == [shown.summary]
    assert "default" in shown.actions  # the click on its body
    game_page = click_and_open(context, page, server, shown, f"{base}/games/{game_id}")
    assert game_page.url == f"{base}/games/{game_id}"
    assert "Tourmaline" in game_page.title()

    # A notice for a page already open focuses that tab: no second one.
    again = service.deliver({"title": "Tourmaline: a reminder", "body": "Two days left.",
                             "url": f"/games/{game_id}", "tag": tag})
    # One notice per game: the same tag replaces, so the phone shows only the latest.
    showing(page, [{"title": "Tourmaline: a reminder", "body": "Two days left.", "tag": tag,
                    "data": {"url": f"{base}/games/{game_id}"}}])
    tabs = len(context.pages)
    server.click_until_closed(again)  # the worker's click handler ran: it closes the notice
    page.wait_for_function(NOTICES + ".then(ns => ns.length === 0)", timeout=10_000)
    assert len(context.pages) == tabs
    game_page.close()

    # A payload naming another site opens this site's home, never the other site.
    service.deliver({"title": "Elsewhere", "body": "x", "url": "https://evil.example/phish",
                     "tag": "other"})
    showing(page, [{"title": "Elsewhere", "body": "x", "tag": "other",
                    "data": {"url": f"{base}/"}}])
    page.evaluate(NOTICES + ".then(ns => ns.forEach(n => n.close()))")
    service.cdp.detach()


def test_no_page_with_a_turn_is_kept_for_offline_use(live, chromium):
    app, base = live
    context, page = chromium
    turn = f"{base}/games/{app.config['TEST_GAME_ID']}/turn"
    page.goto(turn)
    assert active_worker(page)["state"] == "activated"
    assert page.locator("form").count() > 0  # the turn form, online
    assert page.evaluate("() => caches.keys()") == []  # the worker stored nothing
    context.set_offline(True)
    try:
        with pytest.raises(Error, match="ERR_INTERNET_DISCONNECTED"):
            page.goto(turn)
        with pytest.raises(Error, match="ERR_INTERNET_DISCONNECTED"):
            page.goto(f"{base}/games/{app.config['TEST_GAME_ID']}")
    finally:
        context.set_offline(False)
