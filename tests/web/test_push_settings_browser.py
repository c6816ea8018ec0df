"""Notifications on the settings page in a real browser, at 360 and 1280 px in English,
German and Spanish: axe-core clean, nothing scrolling sideways; the page's script offers the
button, the browser's refusal (Chromium's throwaway test contexts have no push service) is
said clearly, a device is removed with its button, and another person's is refused.

Subscribing with a real subscription is shown over HTTP in test_push_settings.py: headless
Chromium gives no PushSubscription without a push service to register with.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from axe_support import looked_at
from browser_support import browser_fixtures, signed_in_page
from device_support import push_subscription
from playwright.sync_api import expect

from vpsleuth.extensions import db
from vpsleuth.models import GameWebhook
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games, push

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("push-settings")
WIDTHS = (360, 1280)
READERS = {"en": "ada@example.org", "de": "bert@example.org", "es": "carmen@example.org"}
STRANGER = "zoe@example.org"
# The section's heading, the browser's refusal, a removed device's notice.
WORDS = {"en": ("Notifications on this device", "The browser could not switch notifications "
                "on. Its reason:", "it gets no more notifications"),
         "de": ("Benachrichtigungen auf diesem Gerät", "Der Browser konnte die "
                "Benachrichtigungen nicht einschalten. Sein Grund:",
                "bekommt keine Benachrichtigungen mehr"),
         "es": ("Notificaciones en este dispositivo", "El navegador no ha podido activar las "
                "notificaciones. Su motivo:", "ya no recibe notificaciones")}


@pytest.fixture(scope="module")
def world(live):
    """Tourmaline, played by the three readers, each of whom also runs a game of their own
    (one with a chat webhook); a stranger with a device of theirs."""
    app, _ = live
    with app.app_context():
        first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
        schedule = weekly(first.strftime("%Y-%m-%d %H:%M"), "Europe/Berlin")
        game = games.create_game("Tourmaline", schedule)
        for (lang, email), name in zip(READERS.items(), ("Ada", "Bert", "Carmen"), strict=True):
            games.add_player(game, name, email, language=lang)
            gm = accounts.create_game_master(email, name, language=lang)
            own = games.create_game(f"{name}'s table", schedule, game_master_id=gm.id)
            if lang == "en":
                db.session.add(GameWebhook(game_id=own.id, format="matrix",
                                           url="https://chat.example.net/hook/1"))
        games.start_game(game, seed=4)
        stranger = push.subscribe(STRANGER, push_subscription(), "Zoe's phone").id
        db.session.commit()
        return {"stranger_device": stranger}


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_is_offered_push_told_the_browsers_refusal_and_removes_a_device(
        live, ctx, browser, world, lang, width):
    _, base = live
    heading, refused, removed = WORDS[lang]
    email = READERS[lang]
    device = push.subscribe(email, push_subscription(), "Pixel").id
    db.session.commit()
    page = signed_in_page(browser, base, email, {"width": width, "height": 900})
    page.context.grant_permissions(["notifications"], origin=base)
    page.goto(f"{base}/settings")
    expect(page.locator("#push-heading")).to_have_text(heading)
    expect(page.locator("#push-form")).to_be_visible()  # the script is there: the button
    expect(page.locator("#push-needs")).to_be_hidden()
    expect(page.locator("#push-label")).to_have_value("Chrome · Linux")  # from the browser
    expect(page.locator(f"#device-{device}")).to_contain_text("Pixel")
    if lang == "en":
        expect(page.locator("#chat-list")).to_contain_text("a chat webhook is set (Matrix)")
    looked_at(page, f"push-settings-{lang}", width)

    page.click("#push-subscribe")
    status = page.locator("#push-status")
    expect(status).to_contain_text(refused)
    expect(status).to_have_attribute("role", "alert")
    # Chromium's own reason follows ours, as it gave it.
    expect(status).to_contain_text("Registration failed")
    assert push.devices(email) and len(push.devices(email)) == 1
    page.console_errors.clear()  # Chromium's console line about push in this context

    page.locator(f"#device-{device} button").click()
    expect(page.locator(".flash.ok")).to_contain_text(removed)
    expect(page.locator(f"#device-{device}")).to_have_count(0)
    db.session.expire_all()
    assert push.devices(email) == []
    looked_at(page, f"push-settings-removed-{lang}", width)

    # Another person's device, asked for by its number with this session's own token.
    token = page.locator("#push-form input[name=csrf_token]").input_value()
    answer = page.request.post(f"{base}/settings/push/{world['stranger_device']}/remove",
                               form={"csrf_token": token})
    assert answer.status == 404
    db.session.expire_all()
    assert [d.id for d in push.devices(STRANGER)] == [world["stranger_device"]]
    page.context.close()
