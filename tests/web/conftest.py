"""Shared web fixtures: a test client and signing in for real by emailed link."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from vpsleuth.extensions import db
from vpsleuth.services import auth

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class RequestClient(FlaskClient):
    """A test client whose every request gets its own app context, as on a real server.

    The ``app`` fixture keeps one app context pushed for the whole test; without
    this, requests would share its ``g`` (the cached viewer) and its database session.
    """

    def open(self, *args, **kwargs):
        with self.application.app_context():
            return super().open(*args, **kwargs)


def request_client(app) -> RequestClient:
    """A RequestClient of ``app``, the app left as it is (it serves other tests after this one)."""
    return RequestClient(app, app.response_class, use_cookies=True)


def csrf_token(client, path: str = "/signin") -> str:
    """The CSRF token of the client's session, read from a page's form."""
    match = CSRF.search(client.get(path).get_data(as_text=True))
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def sign_in(client, email: str) -> None:
    """Sign in as a real user does: a link token, the confirm page, its POST."""
    token = auth.issue_token(email)
    db.session.commit()
    page = client.get(f"/signin/{token}").get_data(as_text=True)
    response = client.post(f"/signin/{token}", data={"csrf_token": CSRF.search(page).group(1)})
    assert response.status_code == 302, response.get_data(as_text=True)


@pytest.fixture
def client(app):
    return request_client(app)


@pytest.fixture
def signed_in(app):
    """A factory: a new client signed in as ``email``."""
    def make(email: str):
        c = request_client(app)
        sign_in(c, email)
        return c
    return make


# --- the players' pages ------------------------------------------------------

PLAYERS = {"Ada": "ada@example.org", "Ben": "ben@example.org", "Cleo": "cleo@example.org"}


def _first_deadline(days: float = 3, timezone: str = "Europe/Berlin") -> str:
    """A local first deadline some days from the real now (pages use the real clock)."""
    from datetime import UTC, datetime, timedelta
    from zoneinfo import ZoneInfo

    moment = datetime.now(UTC) + timedelta(days=days)
    return moment.astimezone(ZoneInfo(timezone)).strftime("%Y-%m-%d %H:%M")


@pytest.fixture
def make_game(app):
    """A factory: a game with Ada, Ben and Cleo, round 1's deadline three days ahead.

    ``start=False`` leaves it in setup; ``rules`` are house rules (a Ruleset).
    """
    from vpsleuth.rules.schedule import weekly
    from vpsleuth.services import games

    def make(name: str = "Moonstone", rules=None, start: bool = True,
             players: dict[str, str] | None = None):
        game = games.create_game(name, weekly(_first_deadline(), "Europe/Berlin"), rules)
        for player, email in (PLAYERS if players is None else players).items():
            games.add_player(game, player, email)
        if start:
            games.start_game(game, seed=7)
        return game
    return make


@pytest.fixture
def moonstone(make_game):
    """A running game "Moonstone" with players Ada, Ben and Cleo."""
    return make_game()


@pytest.fixture
def ada(signed_in):
    """A client signed in as Ada."""
    return signed_in(PLAYERS["Ada"])


# --- the game master's console -----------------------------------------------

GM_EMAIL = "gm@example.org"
GM_PLAYERS = {"Ada": "ada@example.org", "Bob": "bob@example.org"}


class GmWeb:
    """A browser stand-in for the GM pages: each request in an app context of its own.

    As in production, every request gets a fresh ``g`` and database session; the
    test's own session is rolled back first, so it reads afresh what the request
    committed. POSTs carry the session's CSRF token unless told otherwise.
    """

    def __init__(self, app, client):
        self.app, self.client, self._csrf = app, client, None

    def open(self, method: str, url: str, **kwargs):
        db.session.rollback()
        with self.app.app_context():
            return self.client.open(url, method=method, **kwargs)

    def get(self, url: str, **kwargs):
        return self.open("GET", url, **kwargs)

    def post(self, url: str, data: dict | None = None, *, csrf: bool = True, **kwargs):
        data = dict(data or {})
        if csrf:
            data.setdefault("csrf_token", self.csrf_token())
        return self.open("POST", url, data=data, **kwargs)

    def csrf_token(self) -> str:
        if self._csrf is None:
            match = CSRF.search(self.get("/signin").get_data(as_text=True))
            assert match, "no CSRF token on /signin"
            self._csrf = match.group(1)
        return self._csrf

    def sign_in(self, email: str) -> GmWeb:
        """Sign in by a real link: the token, the confirm page, its POST."""
        token = auth.issue_token(email)
        db.session.commit()
        page = self.get(f"/signin/{token}").get_data(as_text=True)
        response = self.open("POST", f"/signin/{token}",
                             data={"csrf_token": CSRF.search(page).group(1)})
        assert response.status_code == 302, response.get_data(as_text=True)
        self._csrf = None  # signing in starts a new session, with a new CSRF secret
        return self


def gm_deadline(days: float = 10, timezone: str = "Europe/Berlin") -> str:
    """A local deadline some days after the real now (the GM pages use the real clock)."""
    from datetime import UTC, datetime, timedelta
    from zoneinfo import ZoneInfo

    moment = datetime.now(UTC) + timedelta(days=days)
    return moment.astimezone(ZoneInfo(timezone)).strftime("%Y-%m-%d %H:%M")


@pytest.fixture
def gm_account(app):
    """The game master "Grace" <gm@example.org>."""
    from vpsleuth.services import accounts

    return accounts.create_game_master(GM_EMAIL, "Grace")


@pytest.fixture
def gm_web(app, gm_account):
    """A client signed in as the game master."""
    return GmWeb(app, app.test_client()).sign_in(GM_EMAIL)


@pytest.fixture
def gm_web_as(app):
    """A factory: a client signed in as ``email`` (a player, another GM, ...)."""
    return lambda email: GmWeb(app, app.test_client()).sign_in(email)


@pytest.fixture
def gm_visitor(app):
    """A signed-out client for the GM pages."""
    return GmWeb(app, app.test_client())


@pytest.fixture
def gm_later():
    """``gm_later(days)``: a local datetime-local value some days after the real now."""
    return lambda days=20, timezone="Europe/Berlin": gm_deadline(days, timezone).replace(" ", "T")


@pytest.fixture
def gm_setup_game(app, gm_account):
    """The GM's game "Emerald" in setup with players Ada and Bob (Europe/Berlin)."""
    from vpsleuth.rules.schedule import weekly
    from vpsleuth.services import games

    game = games.create_game("Emerald", weekly(gm_deadline(), "Europe/Berlin"),
                             actor=GM_EMAIL, game_master_id=gm_account.id)
    for name, email in GM_PLAYERS.items():
        games.add_player(game, name, email, actor=GM_EMAIL)
    return game


@pytest.fixture
def gm_running_game(gm_setup_game):
    """"Emerald", started: round 1 is open, its deadline ten days ahead."""
    from vpsleuth.services import games

    games.start_game(gm_setup_game, seed=11, actor=GM_EMAIL)
    return gm_setup_game
