"""Sign-in by emailed link: single use, time-limited, unforgeable, rate-limited."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, utcnow
from vpsleuth.services import auth

LINK = re.compile(r"/signin/([A-Za-z0-9_.\-]+)")
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_token(client) -> str:
    return CSRF.search(client.get("/signin").get_data(as_text=True)).group(1)


def request_link(client, email: str, next_path: str = ""):
    return client.post("/signin", data={"email": email, "next": next_path,
                                        "csrf_token": csrf_token(client)})


def confirm(client, token: str):
    page = client.get(f"/signin/{token}").get_data(as_text=True)
    return client.post(f"/signin/{token}", data={"csrf_token": CSRF.search(page).group(1)})


def sign_in_mails(email: str) -> list[OutboxMessage]:
    return db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "sign_in", OutboxMessage.to_addr == email)).all()


def test_a_known_address_gets_a_link_that_signs_in_and_returns_to_the_page(moonstone, client):
    response = request_link(client, "Ada@Example.org", f"/games/{moonstone.id}")
    assert response.status_code == 200 and "Check your mail" in response.get_data(as_text=True)
    [mail] = sign_in_mails("Ada@Example.org")
    token = LINK.search(mail.body_text).group(1)
    assert client.get(f"/games/{moonstone.id}").status_code == 302, "not signed in yet"
    response = confirm(client, token)
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/games/{moonstone.id}")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get(f"/games/{moonstone.id}").status_code == 200


def test_an_unknown_address_sees_the_same_answer_and_no_mail_is_written(moonstone, client):
    response = request_link(client, "stranger@example.org")
    assert response.status_code == 200 and "Check your mail" in response.get_data(as_text=True)
    assert sign_in_mails("stranger@example.org") == []


def test_opening_the_link_alone_does_not_use_it_up(moonstone, client):
    token = auth.issue_token("ada@example.org")
    db.session.commit()
    for _ in range(3):  # a mail scanner fetching the link
        assert client.get(f"/signin/{token}").status_code == 200
    assert confirm(client, token).status_code == 302


def test_a_used_link_is_refused(moonstone, client, signed_in):
    token = auth.issue_token("ada@example.org")
    db.session.commit()
    assert confirm(client, token).status_code == 302
    other = signed_in("ben@example.org")
    response = confirm(other, token)
    assert response.status_code == 400
    assert "has been used already" in response.get_data(as_text=True)


def test_an_expired_link_is_refused(moonstone, client):
    token = auth.issue_token("ada@example.org", now=utcnow() - timedelta(hours=2))
    db.session.commit()
    response = confirm(client, token)
    assert response.status_code == 400 and "has expired" in response.get_data(as_text=True)


def test_a_forged_or_altered_link_is_refused(moonstone, client):
    token = auth.issue_token("ada@example.org")
    db.session.commit()
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    payload, _, signature = token.rpartition(".")
    for bad in (forged, "not-a-token", f"{payload}x.{signature}"):
        response = confirm(client, bad)
        assert response.status_code == 400, bad
        assert "is not valid" in response.get_data(as_text=True)
    assert client.get(f"/games/{moonstone.id}").status_code == 302


def test_link_requests_mail_at_most_five_links_an_hour_with_the_same_answer(moonstone, client):
    answers = [request_link(client, "ada@example.org") for _ in range(7)]
    assert [r.status_code for r in answers] == [200] * 7
    assert all("Check your mail" in r.get_data(as_text=True) for r in answers)
    assert len(sign_in_mails("ada@example.org")) == 5


def test_after_sign_in_the_redirect_never_leaves_the_site(moonstone, client):
    request_link(client, "ada@example.org", "https://evil.example/steal")
    [mail] = sign_in_mails("ada@example.org")
    response = confirm(client, LINK.search(mail.body_text).group(1))
    assert response.headers["Location"] in ("/", "http://localhost/")


def test_every_page_carries_the_security_headers(client):
    headers = client.get("/").headers
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
