"""A person with a cookie jar, talking to a real server over HTTP (``requests``)."""

from __future__ import annotations

import re

import requests

from vpsleuth.extensions import db
from vpsleuth.services import auth

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Browser:
    """A person with a cookie jar, talking to the real server over HTTP."""

    def __init__(self, base: str):
        self.base, self.http = base, requests.Session()

    def get(self, path: str) -> requests.Response:
        return self.http.get(self.base + path, allow_redirects=False, timeout=10)

    def post(self, path: str, data: dict | None = None, *, form_page: str = "/signin"):
        token = CSRF.search(self.get(form_page).text).group(1)
        return self.http.post(self.base + path, data={"csrf_token": token, **(data or {})},
                              allow_redirects=False, timeout=10)

    def open_link(self, token: str) -> requests.Response:
        """The confirm page of a sign-in link, and its button."""
        return self.post(f"/signin/{token}", form_page=f"/signin/{token}")

    def sign_in(self, email: str) -> Browser:
        """With a link the address asked for itself."""
        token = auth.issue_token(email)
        db.session.commit()
        assert self.open_link(token).status_code == 302
        return self

    def copy(self) -> Browser:
        """Another browser holding a copy of this one's cookies (a stolen cookie)."""
        other = Browser(self.base)
        other.http.cookies.update(self.http.cookies)
        return other
