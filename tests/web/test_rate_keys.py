"""Client addresses in rate_event cannot be read back: keys are HMACs of the service's own.

A plain SHA-256 of "127.0.0.1" is recovered by hashing all 2^32 IPv4 addresses;
an HMAC under a key derived from SECRET_KEY (which is not in the database) is
not. Requests go through the real sign-in form (the test client's client
address is 127.0.0.1), and the limits they feed still hold.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from conftest import CSRF, PLAYERS
from sqlalchemy import func, select

from vpsleuth import create_app, jobs
from vpsleuth.extensions import db
from vpsleuth.models import RateEvent, utcnow
from vpsleuth.services import limits

CLIENT, ADA = "127.0.0.1", PLAYERS["Ada"]


def ask_for_link(client, email: str):
    """Ask for a sign-in link for ``email`` on the sign-in form, as a visitor does."""
    page = client.get("/signin").get_data(as_text=True)
    return client.post("/signin", data={"email": email,
                                        "csrf_token": CSRF.search(page).group(1)})


def stored_keys() -> dict[str, str]:
    """Bucket -> the key stored for it (one request's rows)."""
    db.session.rollback()
    return {row.bucket: row.key for row in db.session.scalars(select(RateEvent))}


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_stored_keys_are_not_plain_hashes_of_the_address_or_the_client(client, moonstone):
    assert ask_for_link(client, ADA).status_code == 200
    keys = stored_keys()
    assert set(keys) == {"sign_in_client", "sign_in_pair", "sign_in_address"}
    plain = {sha256(CLIENT), sha256(ADA), sha256(f"{ADA} {CLIENT}")}
    assert not plain & set(keys.values()), "a key is the plain SHA-256 of what it counts"
    assert all(len(key) == 64 for key in keys.values())


def test_two_services_with_different_secrets_store_different_keys_for_one_client(
        app, client, moonstone):
    assert ask_for_link(client, ADA).status_code == 200
    ours = stored_keys()
    other = create_app({"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                        "SECRET_KEY": "another-service-entirely"})
    with other.app_context():
        theirs = limits._key(CLIENT)
    twin = create_app({"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                       "SECRET_KEY": app.config["SECRET_KEY"]})
    with twin.app_context():
        same_secret_elsewhere = limits._key(CLIENT)
    assert theirs != ours["sign_in_client"]
    assert same_secret_elsewhere == ours["sign_in_client"], \
        "every worker of one service must count one client under one key"


def test_the_per_client_limit_still_holds_with_keyed_hashes(app, client, moonstone):
    app.config["SIGN_IN_PER_CLIENT_PER_HOUR"] = 3
    answers = [ask_for_link(client, f"visitor{i}@example.org").status_code for i in range(4)]
    assert answers == [200, 200, 200, 429]
    assert limits.count("sign_in_client", CLIENT, timedelta(hours=1)) == 3


def test_rows_keyed_the_old_way_count_for_nothing_and_go_with_the_forget_old_job(
        app, client, moonstone):
    app.config["SIGN_IN_PER_CLIENT_PER_HOUR"] = 2
    long_ago = utcnow() - timedelta(days=3)
    recent = utcnow() - timedelta(minutes=5)
    for moment in (long_ago, recent, recent):  # as the plain SHA-256 stored them
        db.session.add(RateEvent(bucket="sign_in_client", key=sha256(CLIENT),
                                 created_at=moment))
    db.session.commit()
    assert [ask_for_link(client, ADA).status_code for _ in range(3)] == [200, 200, 429]
    assert jobs.forget_old(app, utcnow()) == 1
    db.session.rollback()
    assert db.session.scalar(select(func.count()).select_from(RateEvent).where(
        RateEvent.key == sha256(CLIENT))) == 2, "the recent old-style rows wait for their day"
