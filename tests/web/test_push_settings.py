"""The installable app and push on the settings page, over HTTP: the manifest and its icons,
the service worker at the root, switching push on with a browser's subscription, removing
a device (one's own only), and the channels in one place (mail, devices, a GM's chats).

The browser's side of all this is in test_installable_browser.py and
test_push_settings_browser.py.
"""

from __future__ import annotations

import html
import json
import re
import struct

from conftest import GmWeb, gm_deadline
from device_support import push_subscription

from vpsleuth.extensions import db
from vpsleuth.i18n import translate
from vpsleuth.models import GameWebhook, PushSubscription
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, auth, games, push

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
ADA, BEN = "ada@example.org", "ben@example.org"


def png_size(body: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR (after the 8-byte signature and chunk head)."""
    assert body[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", body[16:24])


def post(client, path: str, **data):
    page = client.get("/settings").get_data(as_text=True)
    return client.post(path, data={"csrf_token": CSRF.search(page).group(1), **data})


def devices_of(email: str) -> list[PushSubscription]:
    db.session.expire_all()
    return push.devices(email)


def test_the_manifest_names_the_app_its_colours_and_real_icons_in_the_page_language(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    assert answer.headers["Cache-Control"] == "no-cache"
    manifest = json.loads(answer.get_data(as_text=True))
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/",
                                                                             "standalone")
    with client.get("/static/style.css") as style:
        css = style.get_data(as_text=True)
    assert f"--accent: {manifest['theme_color']};" in css
    assert f"--paper: {manifest['background_color']};" in css
    assert manifest["description"] == "a play-by-mail moderator"
    purposes = set()
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert (image.status_code, image.mimetype) == (200, "image/png"), icon
        width, height = png_size(image.get_data())
        image.close()  # a static file's answer holds the file open until closed
        assert f"{width}x{height}" == icon["sizes"], icon
        purposes.add((icon["sizes"], icon["purpose"]))
    assert purposes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    client.get("/lang/de")
    german = json.loads(client.get("/manifest.webmanifest").get_data(as_text=True))
    assert (german["lang"], german["description"]) == ("de", "Spielleitung für Postspiele")


def test_every_page_links_the_manifest_and_registers_the_worker_the_policy_allows(client):
    page = client.get("/signin")
    text = page.get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in text
    assert '<meta name="theme-color" content="#7a3e1d"' in text
    assert '<script src="/static/app.js" defer></script>' in text
    policy = page.headers["Content-Security-Policy"]
    # worker-src and manifest-src fall back to default-src (CSP 3): 'self' lets both in,
    # and script-src 'self' keeps every script a file of this site (no inline script).
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "worker-src" not in policy and "manifest-src" not in policy
    assert "<script>" not in text


def test_the_service_worker_is_served_at_the_root_uncached_and_caches_nothing(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    script = answer.get_data(as_text=True)
    answer.close()  # a static file's answer holds the file open until closed
    for handled in ('"push"', '"notificationclick"', "showNotification", "openWindow"):
        assert handled in script, handled
    # No fetch handler and no Cache Storage: no page is ever kept for offline use.
    assert '"fetch"' not in script and "caches." not in script


def test_a_player_switches_push_on_with_the_browsers_subscription(app, moonstone, ada):
    page = ada.get("/settings").get_data(as_text=True)
    assert f'data-key="{push.vapid_public_key()}"' in page
    assert 'id="no-devices"' in page
    answer = post(ada, "/settings/push", subscription=json.dumps(push_subscription()),
                  label="phone")
    assert (answer.status_code, answer.headers["Location"]) == (302, "/settings#push")
    [device] = devices_of(ADA)
    assert device.label == "phone" and device.endpoint.startswith("https://push.example.net/")
    page = ada.get("/settings").get_data(as_text=True)
    assert "Notifications are on for “phone”." in page
    assert f'id="device-{device.id}"' in page and "no notice yet" in page


def test_a_subscription_that_is_not_a_browsers_is_refused_with_its_reason(app, moonstone, ada):
    hostile = push_subscription("https://10.0.0.5/internal")
    for subscription, reason in (("not json", push.BAD_SUBSCRIPTION),
                                 (json.dumps(hostile), push.BAD_HOST)):
        answer = post(ada, "/settings/push", subscription=subscription, label="phone")
        assert answer.status_code == 400
        text = html.unescape(answer.get_data(as_text=True))
        assert 'id="push-error"' in text
        assert translate("en", reason)[1:] in text  # as a sentence: capital first
    assert devices_of(ADA) == []


def test_a_person_removes_their_own_device_and_never_anothers(app, moonstone, ada):
    mine = push.subscribe(ADA, push_subscription(), "phone").id
    theirs = push.subscribe(BEN, push_subscription(), "tablet").id
    db.session.commit()
    refused = post(ada, f"/settings/push/{theirs}/remove")
    assert refused.status_code == 404
    assert "No such device of yours" in refused.get_data(as_text=True)
    assert [d.id for d in devices_of(BEN)] == [theirs]
    answer = post(ada, f"/settings/push/{mine}/remove")
    assert (answer.status_code, answer.headers["Location"]) == (302, "/settings#push")
    assert devices_of(ADA) == []
    assert "it gets no more notifications" in ada.get("/settings").get_data(as_text=True)


def test_an_invitations_session_sees_no_devices_and_may_not_add_one(app, moonstone):
    push.subscribe(ADA, push_subscription(), "phone")
    db.session.commit()
    web = GmWeb(app, app.test_client())  # signed in by Ada's invitation: that game only
    token = auth.issue_token(ADA, purpose="invitation", player=moonstone.players[0])
    db.session.commit()
    form = web.get(f"/signin/{token}").get_data(as_text=True)
    web.open("POST", f"/signin/{token}", data={"csrf_token": CSRF.search(form).group(1)})
    page = web.get("/settings").get_data(as_text=True)
    assert 'id="push-own-session"' in page and "phone" not in page
    answer = web.post("/settings/push", {"subscription": json.dumps(push_subscription())})
    assert answer.status_code == 403
    assert len(devices_of(ADA)) == 1


def test_the_settings_show_every_channel_mail_devices_and_a_gms_chats(app, make_game,
                                                                     gm_web_as):
    gm = accounts.create_game_master(ADA, "Ada")
    played = make_game("Moonstone")
    games.find_player(played, "Ada").wants_reminders = False
    hooked = games.create_game("Basalt", weekly(gm_deadline(), "Europe/Berlin"),
                               game_master_id=gm.id)
    quiet = games.create_game("Garnet", weekly(gm_deadline(), "Europe/Berlin"),
                              game_master_id=gm.id)
    db.session.add(GameWebhook(game_id=hooked.id, url="https://chat.example.net/hooks/x",
                               format="discord"))
    db.session.commit()
    page = gm_web_as(ADA).get("/settings").get_data(as_text=True)
    mail = re.search(r'<a href="#game-\d+">Moonstone</a>:\s*(.*?)</li>', page, re.S).group(1)
    assert re.sub(r"\s+", " ", mail) == "round mails on, reminders off"
    assert (f'<a href="/gm/games/{hooked.id}#webhook">Basalt</a>:\n      '
            "a chat webhook is set (Discord)") in page
    assert f'<a href="/gm/games/{quiet.id}#webhook">Garnet</a>:\n      no chat webhook' in page
