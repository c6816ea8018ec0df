"""Sign-in requests: limits that tell nobody who plays and lock nobody out.

Through a real HTTP server behind ProxyFix, so each request can come from a
client address of its own (X-Forwarded-For), as behind the production proxy.
"""

from __future__ import annotations

import re

import pytest
import requests
from browser_support import serve
from http_support import CSRF, Browser
from sqlalchemy import select
from werkzeug.middleware.proxy_fix import ProxyFix

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage

ADA, STRANGER = "ada@example.org", "nobody-plays@example.org"
LINK = re.compile(r"/signin/([\w.\-]+)")


@pytest.fixture
def base(app, moonstone):
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1)
    with serve(app) as url:
        yield url


def ask(base: str, email: str, client: str) -> requests.Response:
    """Ask for a link for ``email`` from the client address ``client``, as a new visitor."""
    http = requests.Session()
    headers = {"X-Forwarded-For": client}
    page = http.get(f"{base}/signin", headers=headers, timeout=10).text
    return http.post(f"{base}/signin", headers=headers, timeout=10, allow_redirects=False,
                     data={"email": email, "csrf_token": CSRF.search(page).group(1)})


def seen(response: requests.Response, email: str) -> tuple[int, str]:
    """What the visitor sees, with the address and the form's CSRF token taken out."""
    return response.status_code, CSRF.sub("", response.text.replace(email, "EMAIL"))


def mails_to(email: str) -> list[OutboxMessage]:
    db.session.rollback()
    return db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "sign_in", OutboxMessage.to_addr == email)
        .order_by(OutboxMessage.id)).all()


def test_known_and_unknown_addresses_get_the_same_answers_before_and_at_the_limit(base):
    known = [seen(ask(base, ADA, "203.0.113.1"), ADA) for _ in range(7)]
    unknown = [seen(ask(base, STRANGER, "203.0.113.2"), STRANGER) for _ in range(7)]
    assert [status for status, _ in known] == [200] * 7
    assert known == unknown, "the answers tell who plays"
    assert len(mails_to(ADA)) == 5 and mails_to(STRANGER) == []


def test_a_client_over_its_limit_is_refused_alike_for_every_address(base, app):
    limit = app.config["SIGN_IN_PER_CLIENT_PER_HOUR"]
    for n in range(limit):
        assert ask(base, f"probe{n}@example.org", "198.51.100.9").status_code == 200
    over_known = ask(base, ADA, "198.51.100.9")
    over_unknown = ask(base, STRANGER, "198.51.100.9")
    assert over_known.status_code == 429
    assert seen(over_known, ADA) == seen(over_unknown, STRANGER)
    assert "too many sign-in requests from your network" in over_known.text
    assert mails_to(ADA) == []
    assert ask(base, ADA, "198.51.100.10").status_code == 200, "another client was refused"


def test_a_stranger_flooding_an_address_does_not_lock_its_player_out(base, app):
    for client in ("192.0.2.1", "192.0.2.2", "192.0.2.3"):
        for _ in range(5):
            assert ask(base, ADA, client).status_code == 200
    flooded = len(mails_to(ADA))
    assert flooded == app.config["SIGN_IN_PER_ADDRESS_PER_HOUR"]
    # Ada's own request gets the same page; no more mail, but every link she was sent works.
    assert ask(base, ADA, "203.0.113.77").status_code == 200
    assert len(mails_to(ADA)) == flooded
    newest = LINK.search(mails_to(ADA)[-1].body_text).group(1)
    ada = Browser(base)
    assert ada.open_link(newest).status_code == 302
    assert ada.get("/settings").status_code == 200
