"""Odd input in every query parameter, form field and path variable of every route: no 500.

The routes come from app.url_map (every rule, every method), so a new route is
walked without anyone adding it here. A seeded world gives the path variables
real ids (and odd ones); the forms are read off the pages every identity sees
(anonymous, Ada who plays, Gail who runs the games), with their own values,
and each field in turn gets each odd value of web_walk.ODD (control
characters, 100,000 characters, invalid and overlong UTF-8, mixed Unicode
normalisation, a number no column holds) with the CSRF token of the page's
session. Query parameters are the ones each route reads (noted as it reads
them, web_walk.reading_request) and the ones its links and GET forms carry.
Every answer must be below 500, and the log must hold no traceback.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import unquote_to_bytes, urlsplit

import pytest
from sqlalchemy import select

from vpsleuth.api.inputs import MAX_ID
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, utcnow
from vpsleuth.services import (
    absence,
    accounts,
    archive,
    auth,
    board,
    games,
    heartbeat,
    lobby,
    notebook,
)
from vpsleuth.services.access import viewer_for
from vpsleuth.web.feeds import feed_token

from .support import make_game, play_round
from .web_walk import (
    ODD,
    ODD_SEGMENTS,
    Form,
    converters,
    encode,
    fill,
    query_of,
    read_page,
    reading_request,
)

GAIL, ADA, BEN, OTTO = "gail@example.org", "ada@example.org", "ben@example.org", \
    "otto@example.org"
WHO = {"anon": None, "player": ADA, "gm": GAIL}
FORM_BODY = "application/x-www-form-urlencoded"
# Forms no page of the seeded world shows (a state it is not in), with their fields.
DECLARED = {
    ("POST", "/gm/games/<int:game_id>/resume"): {},  # the game is not paused
    # Only somebody who neither plays nor runs the game, nor has asked, sees this form.
    ("POST", "/games/open/<int:game_id>"): {"name": "Zed", "language": "en",
                                            "message": "May I join?"},
    # The game has no chat webhook, so its page offers neither removing nor testing one.
    ("POST", "/gm/games/<int:game_id>/webhook/remove"): {},
    ("POST", "/gm/games/<int:game_id>/webhook/test"): {},
    # No browser of the world has switched push notices on: no device to remove.
    ("POST", "/settings/push/<int:subscription_id>/remove"): {},
    # The one-click link of a mail (RFC 8058), never on a page of the site but its own.
    ("POST", "/unsubscribe/<token>"): {"List-Unsubscribe": "One-Click"},
}
# Actions that end the session or change the game for what follows: walked last.
LAST = ("/withdraw", "/pause", "/resolve", "/start", "/signout", "/signout/everywhere")


@dataclass
class World:
    """Gail runs Running (round 2 open, listed, Otto asks to join), Finished and Setup."""

    values: dict[str, str]
    game_ids: list[int]


@pytest.fixture
def world(app) -> World:
    app.config.update(SIGN_IN_PER_CLIENT_PER_HOUR=10**6, SIGN_IN_PER_HOUR=10**6,
                      SIGN_IN_PER_ADDRESS_PER_HOUR=10**6,
                      JOIN_REQUESTS_PER_ADDRESS_PER_DAY=10**6,
                      JOIN_REQUESTS_PER_GAME_PER_DAY=10**6)
    gail = accounts.create_game_master(GAIL, "Gail")
    both = [("Ada", ADA), ("Ben", BEN)]
    running = make_game("Running", gail, both)
    games.start_game(running, seed=7)
    play_round(running, {"Ada": "QUESTION C pearl\nTIP C GP1"})
    finished = make_game("Finished", gail, both, rounds=1)
    games.start_game(finished, seed=8)
    play_round(finished, {"Ada": "QUESTION A red\nTIP A RD1"})
    archive.set_public(finished, True, actor=GAIL)  # the archive's pages are walked too
    setup = make_game("Setup", gail, [("Cy", "cy@example.org")])
    ada = running.players[0]
    notebook.save(ada, notes="my own notes")
    post = board.post(running, "my own post", player=ada, channel="web")
    today = utcnow().date()
    away = absence.announce(ada, today, today + timedelta(days=4), "my own note",
                            channel="web", entered_by=ADA)
    lobby.set_listing(running, open_to_join=True, max_players=None, actor=GAIL)
    otto = lobby.ask_to_join(viewer_for(OTTO), running.id, "Otto")
    token, _ = accounts.issue_api_token(game_master=gail, label="gail-bot")
    invitation = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.player_id == ada.id, OutboxMessage.kind == "invitation")
        .order_by(OutboxMessage.id)).first()
    values = {"game_id": running.id, "player_id": ada.id, "number": 1,
              "message_id": invitation.id, "token_id": token.id, "request_id": otto.id,
              "token": "not-a-sign-in-link", "code": "de", "filename": "style.css",
              "path": "no/such/thing", "profile_id": 1, "post_id": post.id,
              "absence_id": away.id, "subscription_id": 1}
    ids = [running.id, finished.id, setup.id]
    values["feed"] = feed_token(ada)
    heartbeat.record_heartbeat(utcnow())  # /healthz answers 200, so any 5xx is a fault
    db.session.commit()
    return World(values, ids)


class Visitor:
    """One browser: a cookie jar, each request in an app context of its own."""

    def __init__(self, app, who: str) -> None:
        self.app, self.who, self.client = app, who, app.test_client()
        self.csrf = ""
        self.renew()

    def renew(self) -> None:
        """Start afresh (signed in by a real link, unless anonymous)."""
        self.client = self.app.test_client()
        if WHO[self.who] is not None:
            token = auth.issue_token(WHO[self.who])
            db.session.commit()
            page = self.send("GET", f"/signin/{token}").get_data(as_text=True)
            self.csrf = _csrf(page)
            assert self.send("POST", f"/signin/{token}",
                             encode({"csrf_token": self.csrf})).status_code == 302
        self.csrf = _csrf(self.send("GET", "/signin").get_data(as_text=True))

    def send(self, method: str, target: str, body: str | None = None, *,
             raw_path: str | None = None, content_type: str = FORM_BODY):
        path, _, query = target.partition("?")
        extra = {"PATH_INFO": raw_path} if raw_path is not None else {}
        db.session.rollback()
        with self.app.app_context():
            return self.client.open(path, method=method, query_string=query,
                                    data=body.encode() if body is not None else None,
                                    content_type=content_type if body is not None else None,
                                    environ_overrides=extra)


def _csrf(page: str) -> str:
    forms, _ = read_page("/", page)
    return next((f.fields["csrf_token"] for f in forms if "csrf_token" in f.fields), "")


class Walk:
    """Sends requests and keeps every one that failed (5xx, an exception, a logged error)."""

    def __init__(self, app, caplog) -> None:
        self.app, self.caplog, self.failures, self.sent = app, caplog, [], 0
        self.reads: dict[tuple[str, str], set[tuple[str, str]]] = {}
        app.request_class = reading_request(app.request_class, self.reads)
        self.visitors = {who: Visitor(app, who) for who in WHO}

    def send(self, who: str, method: str, target: str, body: str | None = None,
             what: str = "", **kwargs):
        self.caplog.clear()
        self.sent += 1
        label = f"{who:6} {method} {target[:90]} {what}"
        try:
            response = self.visitors[who].send(method, target, body, **kwargs)
            response.text = response.get_data(as_text=True)
            response.close()
        except Exception as exc:  # noqa: BLE001 - every one is reported at the end
            self.failures.append(f"{label}: raised {exc!r}"[:300])
            return None
        if response.status_code >= 500:
            self.failures.append(f"{label}: {response.status_code}")
        logged = [r for r in self.caplog.records if r.levelno >= logging.ERROR or r.exc_info]
        if logged:
            self.failures.append(f"{label}: logged {logged[0].getMessage()[:120]}")
        return response

    def report(self) -> str:
        return f"{len(self.failures)} of {self.sent} requests failed:\n" + "\n".join(
            self.failures[:60])


def web_rules(app, method: str):
    return [r for r in app.url_map.iter_rules()
            if method in r.methods and not r.rule.startswith("/api/")]


def fills(rule, world: World) -> list[str]:
    """The rule filled with the world's ids: once for each game where it names one."""
    games_here = world.game_ids if "game_id" in rule.arguments else [world.values["game_id"]]
    return [fill(rule.rule, {**world.values, "game_id": g}) for g in games_here]


def discover(app, walk: Walk, world: World) -> tuple[list[tuple[str, Form]], dict]:
    """Every form each identity is shown, and the query each GET route's links carry."""
    forms: dict[tuple, tuple[str, Form]] = {}
    queries: dict[str, dict[str, str]] = {}
    adapter = app.url_map.bind("localhost")
    for who in WHO:
        for rule in web_rules(app, "GET"):
            for url in fills(rule, world):
                response = walk.send(who, "GET", url, what="(discovery)")
                if response is None or response.mimetype != "text/html":
                    continue
                found, links = read_page(url, response.text)
                for form in found:
                    forms.setdefault((who, *form.key), (who, form))
                for link in links:
                    try:
                        endpoint_rule, _ = adapter.match(urlsplit(link).path, "GET",
                                                         return_rule=True)
                    except Exception:  # noqa: BLE001, S112 - another site's or a static link
                        continue
                    queries.setdefault(endpoint_rule.rule, {}).update(query_of(link))
    return list(forms.values()), queries


def rule_of(app, method: str, target: str) -> str:
    adapter = app.url_map.bind("localhost")
    rule, _ = adapter.match(urlsplit(target).path, method, return_rule=True)
    return rule.rule


@pytest.fixture
def walk(app, world, caplog) -> Walk:
    caplog.set_level(logging.WARNING)
    return Walk(app, caplog)


def test_every_post_route_has_a_form_to_walk_or_declared_fields(app, walk, world):
    forms, _ = discover(app, walk, world)
    seen = {(form.method, rule_of(app, form.method, form.action)) for _, form in forms}
    posts = {("POST", r.rule) for r in web_rules(app, "POST")}
    missing = posts - seen - set(DECLARED)
    assert not missing, f"POST routes no page shows a form for (add to DECLARED): {missing}"
    assert not set(DECLARED) - posts, "DECLARED names a route that is gone"


def test_odd_values_in_every_query_parameter_of_every_get_route_are_no_500(app, walk, world):
    _, queries = discover(app, walk, world)
    for rule in web_rules(app, "GET"):
        target = fills(rule, world)[0]
        base = queries.get(rule.rule, {})
        for who in WHO:
            walk.send(who, "GET", target + "?" + encode(base))  # notes what the route reads
            read = {name for kind, name in walk.reads.get(("GET", rule.rule), ())
                    if kind == "args"}
            for name in sorted(read | set(base) | {"stray"}):
                for odd, value in ODD.items():
                    walk.send(who, "GET", f"{target}?{encode(base, {name: value})}",
                              what=f"{name}={odd}")
    assert not walk.failures, walk.report()


def test_odd_values_in_every_form_field_as_every_identity_are_no_500(app, walk, world):
    forms, _ = discover(app, walk, world)
    forms += [("gm", Form(m, fill(r, {**world.values, "game_id": world.game_ids[0]}),
                          fields)) for (m, r), fields in DECLARED.items()]
    forms.sort(key=lambda item: urlsplit(item[1].action).path.endswith(LAST))
    for owner, form in forms:
        rule = rule_of(app, form.method, form.action)
        for who in WHO:
            walk.visitors[who].renew()
            fields = {**form.fields, "csrf_token": walk.visitors[who].csrf}
            def send(odd_fields: dict, what: str, who=who, fields=fields, form=form) -> None:
                encoded = encode(fields, odd_fields)
                if form.method == "POST":
                    walk.send(who, "POST", form.action, encoded, what=what)
                else:
                    walk.send(who, form.method, f"{form.action}?{encoded}", what=what)

            send({}, "(as shown)")  # notes what the route reads
            read = {name for kind, name in walk.reads.get((form.method, rule), ())
                    if kind == ("form" if form.method == "POST" else "args")}
            names = sorted(set(fields) | read)
            for odd, value in ODD.items():
                if who != owner:  # refused before any field is read: all at once
                    send(dict.fromkeys(names, value), f"every field={odd}")
                    continue
                for name in names:
                    send({name: value}, f"{name}={odd}")
    assert not walk.failures, walk.report()


def test_odd_path_variables_on_every_route_and_method_are_no_500(app, walk, world):
    for rule in app.url_map.iter_rules():
        if not rule.arguments:
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for who in WHO:
                csrf = encode({"csrf_token": walk.visitors[who].csrf})
                body = csrf if method != "GET" else None
                for name in sorted(converters(rule.rule)):  # not those given by defaults
                    for odd in ("0", str(MAX_ID), str(MAX_ID + 1), "-1", "1.5"):
                        walk.send(who, method, fill(rule.rule, {**world.values, name: odd}),
                                  body, what=f"{name}={odd}")
                    if converters(rule.rule)[name] == "int":
                        continue  # no odd segment matches a whole number's route: 404 above
                    for odd, value in ODD_SEGMENTS.items():
                        target = fill(rule.rule, {**world.values, name: value})
                        raw = unquote_to_bytes(target).decode("latin-1")
                        walk.send(who, method, target, body, raw_path=raw,
                                  what=f"{name}={odd}")
    assert not walk.failures, walk.report()


@pytest.mark.parametrize("sent, lands", [
    ("%2Fgames%2F1%2Fturn", "/games/1/turn"),  # a path of ours is kept
    ("%2F%3F%0Aenv%3B", "/"), ("/a%0Ab", "/"), ("%2F%0D%0ASet-Cookie%3A%20x%3D1", "/"),
    ("/a%00b", "/"), ("/a%1Bb", "/"), ("/%C2%85b", "/"),  # NUL, ESC, NEL
    ("%2F%5Cevil.example", "/"), ("%2F%2Fevil.example", "/"),  # /\ and // leave the site
    ("/" + "a" * 3000, "/"),
])
def test_a_next_page_with_control_characters_another_host_or_no_end_sends_home(
        app, sent, lands):
    response = app.test_client().get(f"/lang/de?next={sent}")
    assert (response.status_code, response.headers["Location"]) == (302, lands)
