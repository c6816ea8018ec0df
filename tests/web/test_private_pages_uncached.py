"""Nothing one person's eyes are meant for stays in a cache: Cache-Control: no-store.

Every page a signed-in player or GM gets (their turn, tips, notebook, feed links,
tokens, the GM's view of the turns), every API answer to a token, and every
page under a link's token says no-store; the routes come from app.url_map, so
a new page is checked too. Public pages for a visitor who is not signed in
(the rules, the static files) may be cached.
"""

from __future__ import annotations

import re

from conftest import GM_EMAIL
from sqlalchemy import select

from vpsleuth.api.auth import PUBLIC_ENDPOINTS
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage
from vpsleuth.services import accounts, auth, notebook, resolution

ADA = "ada@example.org"
# Routes that set their own Cache-Control, or read nothing of the viewer.
OWN_RULE = {"/games/<int:game_id>/feed.atom": "private, max-age=300",
            "/games/<int:game_id>/calendar.ics": "private, max-age=300",
            # The app's manifest and service worker: the same for everyone (the manifest
            # in the page language), checked again on every visit so a fix reaches phones.
            "/manifest.webmanifest": "no-cache", "/sw.js": "no-cache"}
NOT_PERSONAL = {"/static/<path:filename>", "/healthz"}
VARIABLE = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def fill(rule: str, values: dict) -> str:
    return VARIABLE.sub(lambda m: str(values[m.group(1)]), rule)


def values_for(game) -> dict:
    """Real ids of ``game`` for every path variable of a GET route."""
    ada = next(p for p in game.players if p.email == ADA)
    mail = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.player_id == ada.id).order_by(OutboxMessage.id)).first()
    token, _ = accounts.issue_api_token(player=ada)
    db.session.commit()
    return {"game_id": game.id, "player_id": ada.id, "number": 1, "message_id": mail.id,
            "token_id": token.id, "token": "not-a-link", "code": "en",
            "filename": "style.css", "path": "no/such/thing", "profile_id": 1}


def get_rules(app, api: bool):
    return sorted(r.rule for r in app.url_map.iter_rules()
                  if "GET" in r.methods and r.rule.startswith("/api/") == api
                  and r.endpoint not in PUBLIC_ENDPOINTS)  # no token asked, nobody's answer


def test_the_exceptions_name_routes_that_exist(app):
    assert set(OWN_RULE) | NOT_PERSONAL <= set(get_rules(app, api=False))


def test_every_page_a_player_or_their_gm_gets_says_no_store(
        app, gm_running_game, gm_web, gm_web_as):
    resolution.resolve_round(gm_running_game, number=1)  # a report, a story so far
    ada = next(p for p in gm_running_game.players if p.email == ADA)
    notebook.save(ada, notes="only mine")
    values = values_for(gm_running_game)
    wrong = []
    for who, web in (("Ada", gm_web_as(ADA)), ("the GM", gm_web)):
        for rule in get_rules(app, api=False):
            if rule in NOT_PERSONAL:
                continue
            response = web.get(fill(rule, values))
            got = response.headers.get("Cache-Control")
            if got != OWN_RULE.get(rule, "no-store"):
                wrong.append(f"{who}: {rule} ({response.status_code}) Cache-Control {got!r}")
    assert not wrong, "\n".join(wrong)


def test_every_api_answer_to_a_player_or_a_gm_token_says_no_store(app, gm_running_game,
                                                                  gm_account):
    values = values_for(gm_running_game)
    ada = next(p for p in gm_running_game.players if p.email == ADA)
    tokens = {"Ada": accounts.issue_api_token(player=ada)[1],
              "the GM": accounts.issue_api_token(game_master=gm_account)[1]}
    db.session.commit()
    client, wrong = app.test_client(), []
    for who, token in tokens.items():
        for rule in get_rules(app, api=True):
            response = client.get(fill(rule, values),
                                  headers={"Authorization": f"Bearer {token}"})
            if response.headers.get("Cache-Control") != "no-store":
                wrong.append(f"{who}: {rule} ({response.status_code})")
    assert not wrong, "\n".join(wrong)


def test_pages_under_a_link_token_say_no_store_and_public_ones_may_be_cached(
        app, gm_running_game, gm_visitor):
    token = auth.issue_token(GM_EMAIL)
    db.session.commit()
    for path in (f"/signin/{token}", "/settings/address/not-a-link"):
        assert gm_visitor.get(path).headers.get("Cache-Control") == "no-store", path
    for path in ("/rules", "/help/mail", "/static/style.css"):
        response = gm_visitor.get(path)
        response.close()
        assert "no-store" not in response.headers.get("Cache-Control", ""), path
