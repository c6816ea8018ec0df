"""A person's push devices and the service's VAPID key (services/push.py): what a browser
may subscribe, whose a device is, what leaves with the person and what their data
export shows; the key made once and kept; the queue's rows past their time; and what
`vpsleuth check` says of both."""

from __future__ import annotations

import base64
from datetime import timedelta

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Notice, PushSubscription, SiteKey
from vpsleuth.notices import queue
from vpsleuth.services import games, leaving, personal_data, push, retention
from vpsleuth.services.access import Viewer
from vpsleuth.services.errors import Invalid

from .conftest import subscribed, weekly_from_now
from .push_service import Device, b64url, unb64url


def refusal(email: str, subscription: object) -> Invalid:
    with pytest.raises(Invalid) as caught:
        push.subscribe(email, subscription)
    db.session.rollback()
    return caught.value


def test_a_broken_or_hostile_subscription_is_refused_with_a_reason(app, service):
    good = Device(service).subscription()
    keys = good["keys"]
    cases = {
        "not an object": ("a string", "could not be read"),
        "no keys": ({"endpoint": good["endpoint"]}, "could not be read"),
        "short key": ({**good, "keys": {**keys, "p256dh": keys["p256dh"][:-4]}},
                      "push keys are not valid"),
        "auth of 15 bytes": ({**good, "keys": {**keys, "auth": b64url(b"x" * 15)}},
                             "push keys are not valid"),
        "not base64url": ({**good, "keys": {**keys, "auth": "a+b/" * 6}},
                          "push keys are not valid"),
        "not a point": ({**good, "keys": {**keys, "p256dh": b64url(b"\x04" + b"\x01" * 64)}},
                        "push keys are not valid"),
        "plain http": ({**good, "endpoint": "http://push.example.org/x"}, "https://"),
        "private address": ({**good, "endpoint": "https://10.1.2.3/push/x"},
                            "private network"),
        "link-local": ({**good, "endpoint": "https://[fe80::1]/push/x"}, "private network"),
        "localhost": ({**good, "endpoint": "https://localhost/x"}, "private network"),
        "6to4 of loopback": ({**good, "endpoint": "https://[2002:7f00:1::]/push/x"},
                             "private network"),
        "IPv4-mapped": ({**good, "endpoint": "https://[::ffff:10.0.0.1]/push/x"},
                        "private network"),
        "credentials": ({**good, "endpoint": "https://me:pw@push.example.org/x"}, "https://"),
    }
    for case, (subscription, words) in cases.items():
        assert words in refusal("ada@example.org", subscription).message, case
    app.config["PUSH_ALLOW_LOOPBACK"] = False  # as in production: no http to this machine
    assert "https://" in refusal("ada@example.org", good).message
    assert refusal("ada@example.org", good).text("de") == \
        "die Adresse des Push-Dienstes des Browsers muss mit https:// beginnen"
    assert db.session.scalars(select(PushSubscription)).all() == []


def test_devices_are_their_persons_own_and_an_endpoint_follows_the_last_to_subscribe(
        app, service):
    device = Device(service)
    first = push.subscribe("Ada@Example.org", device.subscription(), label="Phone\n\x07")
    db.session.commit()
    assert (first.email, first.label) == ("ada@example.org", "Phone")
    mine = subscribed(service, "ada@example.org")
    assert [d.endpoint for d in push.devices("ada@example.org")] == [device.endpoint,
                                                                    mine.endpoint]
    assert not push.remove("ben@example.org", first.id)  # Ben may not remove Ada's device
    assert len(push.devices("ada@example.org")) == 2
    # The same browser subscribed by Ben (the phone changed hands): one row, now his.
    again = push.subscribe("ben@example.org", device.subscription())
    db.session.commit()
    assert again.id == first.id and again.label == "Phone"
    assert [d.id for d in push.devices("ben@example.org")] == [first.id]
    assert push.remove("ben@example.org", first.id)
    db.session.commit()
    assert push.devices("ben@example.org") == []


def test_a_person_has_at_most_so_many_devices(app, service):
    app.config["PUSH_MAX_DEVICES"] = 2
    subscribed(service, "ada@example.org")
    subscribed(service, "ada@example.org")
    refused = refusal("ada@example.org", Device(service).subscription())
    assert "on 2 devices" in refused.message and "remove one" in refused.message
    assert "auf 2 Geräten" in refused.text("de")
    assert len(push.devices("ada@example.org")) == 2


def test_devices_leave_with_the_person_and_the_export_lists_them_without_keys(app, service):
    game = games.create_game("Opal Court", weekly_from_now())
    ada = games.add_player(game, "Ada", "ada@example.org", language="en")
    games.add_player(game, "Ben", "ben@example.org", language="de")
    phone, laptop = subscribed(service, "ada@example.org"), subscribed(service, "ben@example.org")
    games.start_game(game, seed=7)
    db.session.commit()
    assert len(db.session.scalars(select(Notice)).all()) == 2  # the round opened: one each

    export = personal_data.export(Viewer(email="ada@example.org"))
    [row] = export["tables"]["push_subscription"]
    assert row["push_service"] == service.origin and row["label"] == "Test browser"
    text = repr(export)
    assert phone.subscription()["keys"]["p256dh"] not in text
    assert phone.subscription()["keys"]["auth"] not in text and phone.token not in text
    [told] = export["tables"]["notice"]  # round 1 opened, for her seat
    assert (told["kind"], told["player_id"], told["status"]) == ("round_opened", ada.id,
                                                               "pending")
    assert "Opal Court: round 1 is open" in told["payload"]
    one_seat = personal_data.export(Viewer(email="ada@example.org", player_id=ada.id))
    assert one_seat["tables"]["push_subscription"] == []  # a device is the address's
    assert [n["id"] for n in one_seat["tables"]["notice"]] == [told["id"]]

    leaving.delete_account(Viewer(email="ada@example.org"))
    db.session.commit()
    assert push.devices("ada@example.org") == []
    assert [n.player_id for n in db.session.scalars(select(Notice))] == \
        [games.find_player(game, "Ben").id]  # her waiting notice went with her
    assert [d.endpoint for d in push.devices("ben@example.org")] == [laptop.endpoint]


def test_the_vapid_key_is_made_once_and_kept_or_taken_from_the_setting(app):
    assert push.vapid_kept_where() == "none"
    public = push.vapid_public_key()
    assert len(unb64url(public)) == 65 and unb64url(public)[0] == 4
    assert push.vapid_kept_where() == "database"
    assert push.vapid_public_key() == public
    assert db.session.get(SiteKey, push.SITE_KEY) is not None
    # The operator's own key, as web-push's generate-vapid-keys prints it, or as PEM.
    own = ec.generate_private_key(ec.SECP256R1())
    raw = own.private_numbers().private_value.to_bytes(32, "big")
    own_public = b64url(own.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
    app.config["VAPID_PRIVATE_KEY"] = b64url(raw)
    assert (push.vapid_public_key(), push.vapid_kept_where()) == (own_public, "setting")
    app.config["VAPID_PRIVATE_KEY"] = own.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode()
    assert push.vapid_public_key() == own_public
    app.config["VAPID_PRIVATE_KEY"] = base64.b64encode(b"not a key").decode()
    with pytest.raises(RuntimeError, match="VAPID_PRIVATE_KEY cannot be read"):
        push.vapid()
    app.config.update(VAPID_PRIVATE_KEY=None, MAIL_DEFAULT_SENDER="Sleuth <gm@sleuth.test>")
    assert push.vapid_subject() == "mailto:gm@sleuth.test"


def test_sent_notices_go_after_their_days_and_waiting_ones_stay(app, now):
    def notice(status: str, days_ago: float) -> Notice:
        row = queue.add("push", "report", {"title": "t"})
        row.status, row.claimed_at = status, now - timedelta(days=days_ago)
        return row
    kept = [notice("sent", 2), notice("pending", 9), notice("sending", 0.1)]
    gone = [notice("sent", 4), notice("dropped", 5), notice("failed", 3.5)]
    db.session.commit()
    kept_ids, gone_ids = {n.id for n in kept}, {n.id for n in gone}
    assert retention.pending(now)["sent notices"] == 3
    assert retention.apply(now)["sent notices"] == 3
    left = set(db.session.scalars(select(Notice.id)))
    assert left == kept_ids and not left & gone_ids


def test_check_reports_the_vapid_key_and_the_notice_queue(app, runner):
    first = runner.invoke(args=["check"])
    public = push.vapid_public_key()
    assert f"Web Push: the VAPID key is made now and kept in the database (table site_key); " \
           f"its public key (the browsers' application server key) is {public}" in first.output
    assert "WARNING Web Push: VAPID_SUBJECT is 'mailto:vpsleuth@localhost'" in first.output
    assert "notice queue (push, webhooks): 0 pending, 0 sending, 0 sent, 0 failed, " \
           "0 dropped" in first.output
    queue.add("push", "report", {"title": "t"}).status = "failed"
    db.session.commit()
    app.config["VAPID_SUBJECT"] = "https://sleuth.example.org/contact"
    again = runner.invoke(args=["check"])
    assert "the VAPID key is kept in the database (table site_key)" in again.output
    assert "VAPID_SUBJECT" not in again.output
    assert "WARNING notice queue (push, webhooks): 0 pending, 0 sending, 0 sent, 1 failed" \
        in again.output
