"""Who reaches the GM console: GM accounts only, and each only for its own games."""

from __future__ import annotations

import html

import pytest
from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import (
    Absence,
    ApiToken,
    AuditEntry,
    Game,
    GameWebhook,
    JoinRequest,
    Notice,
    OutboxMessage,
    Player,
    Round,
    SeatChange,
)
from vpsleuth.services import accounts

GM_EMAIL, OTHER_GM, ADA = "gm@example.org", "other-gm@example.org", "ada@example.org"


def gm_routes(game: Game, later: str) -> list[tuple[str, str, dict]]:
    """Every GM page and action, each with input that would be accepted from its GM."""
    player = game.players[0]
    mail = db.session.scalars(select(OutboxMessage).where(OutboxMessage.game_id == game.id)).first()
    token = db.session.scalars(select(ApiToken)).first()
    asked = db.session.scalars(select(JoinRequest).where(JoinRequest.game_id == game.id)).first()
    request_id = asked.id if asked else 1
    away = db.session.scalars(select(Absence)).first()
    absence_id = away.id if away else 1
    g = f"/gm/games/{game.id}"
    return [
        ("GET", "/gm/", {}),
        ("GET", "/gm/games/new", {}),
        ("POST", "/gm/games/new", {"name": "Sneaky", "first_deadline": later,
                                   "timezone": "Europe/Berlin", "schedule_kind": "weekly",
                                   "rounds": "12", "first_bonus_round": "5",
                                   "points_right": "1", "points_wrong": "-2"}),
        ("GET", g, {}),
        ("POST", f"{g}/players", {"name": "Eve", "email": "eve@example.org",
                                  "language": "en"}),
        ("POST", f"{g}/players/{player.id}/withdraw", {}),
        ("POST", f"{g}/players/{player.id}/email", {"email": "new@example.org"}),
        ("POST", f"{g}/players/{player.id}/replace", {"name": "Dora", "confirm": "yes",
                                                      "email": "dora@example.org"}),
        ("POST", f"{g}/missed-turn", {"missed_turn_rule": "repeat"}),
        ("GET", f"{g}/absences", {}),
        ("POST", f"{g}/absences", {"player": str(player.id), "starts": later[:10],
                                   "ends": later[:10], "note": "sneaky"}),
        ("POST", f"{g}/absences/{absence_id}/cancel", {}),
        ("POST", f"{g}/start", {}),
        ("GET", f"{g}/board", {}),
        ("POST", f"{g}/deadline", {"deadline": later}),
        ("POST", f"{g}/after-early", {"after_early": "fresh"}),
        ("POST", f"{g}/bots", {"name": "Robo", "level": "hard"}),
        ("POST", f"{g}/aid", {"deduction_aid": "on"}),
        ("POST", f"{g}/public", {"public": "on"}),
        ("POST", f"{g}/rated", {"rated": "on"}),
        ("POST", f"{g}/pause", {}),
        ("POST", f"{g}/resume", {}),
        ("POST", f"{g}/resolve", {"number": "1"}),
        ("GET", f"{g}/turn", {}),
        ("POST", f"{g}/turn", {"player": str(player.id), "text": "TIP A RD1"}),
        ("GET", f"{g}/distribution", {}),
        ("POST", f"{g}/distribution", {"confirm": "yes"}),
        ("GET", f"{g}/audit", {}),
        ("POST", f"{g}/listing", {"open_to_join": "y", "max_players": "5"}),
        ("POST", f"{g}/requests/{request_id}/accept", {"name": "Cleo"}),
        ("POST", f"{g}/requests/{request_id}/decline", {}),
        ("POST", f"{g}/webhook", {"url": "http://127.0.0.1:9/hook", "format": "slack"}),
        ("POST", f"{g}/webhook/test", {}),
        ("POST", f"{g}/webhook/remove", {}),
        ("GET", "/gm/outbox", {}),
        ("GET", f"/gm/outbox/{mail.id}", {}),
        ("POST", f"/gm/outbox/{mail.id}/forward", {}),
        ("GET", "/gm/tokens", {}),
        ("POST", "/gm/tokens", {"label": "sneaky"}),
        ("POST", f"/gm/tokens/{token.id}/revoke", {}),
    ]


def snapshot() -> tuple:
    """What any GM action would change."""
    db.session.rollback()
    count = lambda model: db.session.scalar(select(func.count()).select_from(model))  # noqa: E731
    return (count(Game), count(AuditEntry), count(ApiToken), count(OutboxMessage),
            count(Round), count(Absence), count(SeatChange), count(GameWebhook), count(Notice),
            tuple(db.session.execute(select(Player.name, Player.email).order_by(Player.id))),
            tuple(db.session.execute(select(Game.missed_turn_rule).order_by(Game.id))),
            tuple(db.session.execute(
                select(Game.state, Game.public, Game.rated).order_by(Game.id))),
            db.session.scalar(select(func.count()).where(ApiToken.revoked_at.is_not(None))))


@pytest.fixture
def grace_token(gm_account):
    return accounts.issue_api_token(game_master=gm_account, label="grace-spreadsheet-bot")[0]


def test_every_gm_route_is_in_the_access_list(app, gm_running_game, grace_token, gm_later):
    listed = {(method, path) for method, path, _ in gm_routes(gm_running_game, gm_later())}
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        served = set()
        for method, path in listed:
            endpoint, _ = adapter.match(path, method=method)
            served.add((endpoint, method))
    declared = {(rule.endpoint, method) for rule in app.url_map.iter_rules()
                if rule.endpoint.startswith("gm.") for method in rule.methods - {"HEAD",
                                                                                   "OPTIONS"}}
    assert declared == served


def test_a_player_is_refused_on_every_gm_page_and_action(gm_running_game, grace_token,
                                                         gm_web_as, gm_later):
    """403 on the console's own pages; on a game's pages 404, as for a game that is not there."""
    ada = gm_web_as(ADA)
    before = snapshot()
    for method, path, data in gm_routes(gm_running_game, gm_later()):
        response = ada.post(path, data) if method == "POST" else ada.get(path)
        per_game = path.startswith("/gm/games/") and not path.endswith("/new")
        assert response.status_code == (404 if per_game else 403), (method, path)
        if not per_game:
            assert "only game masters" in response.get_data(as_text=True)
    assert snapshot() == before


def test_another_gm_gets_404_without_the_name_on_every_page_and_action_of_a_game_not_theirs(
        gm_running_game, grace_token, gm_web_as, gm_later):
    accounts.create_game_master(OTHER_GM, "Otto")
    otto = gm_web_as(OTHER_GM)
    before = snapshot()
    per_game = [r for r in gm_routes(gm_running_game, gm_later())
                if r[1].startswith("/gm/games/") and not r[1].endswith("/new")]
    assert len(per_game) == 31
    for method, path, data in per_game:
        response = otto.post(path, data) if method == "POST" else otto.get(path)
        assert response.status_code == 404, (method, path)
        assert "Emerald" not in html.unescape(response.get_data(as_text=True))
    assert snapshot() == before


def test_another_gm_sees_neither_the_game_nor_its_mail_nor_the_tokens(
        gm_running_game, grace_token, gm_web_as):
    accounts.create_game_master(OTHER_GM, "Otto")
    otto = gm_web_as(OTHER_GM)
    mail = db.session.scalars(select(OutboxMessage)).first()
    assert "Emerald" not in otto.get("/gm/").get_data(as_text=True)
    listing = otto.get(f"/gm/outbox?game={gm_running_game.id}").get_data(as_text=True)
    assert ADA not in listing and "Emerald" not in listing
    assert otto.get(f"/gm/outbox/{mail.id}").status_code == 404
    assert "grace-spreadsheet-bot" not in otto.get("/gm/tokens").get_data(as_text=True)
    assert otto.post(f"/gm/tokens/{grace_token.id}/revoke").status_code == 404
    db.session.rollback()
    assert db.session.get(ApiToken, grace_token.id).revoked_at is None


def test_a_signed_out_visitor_is_sent_to_sign_in_and_back(gm_running_game, gm_visitor):
    visitor = gm_visitor
    response = visitor.get(f"/gm/games/{gm_running_game.id}/board")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/signin?next=")
    assert f"/gm/games/{gm_running_game.id}/board" in response.headers["Location"]
    before = snapshot()
    assert visitor.post(f"/gm/games/{gm_running_game.id}/pause").status_code == 302
    assert snapshot() == before


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(gm_running_game, gm_web,
                                                                      app):
    assert app.config.get("WTF_CSRF_ENABLED", True) is True
    before = snapshot()
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/pause", csrf=False)
    assert response.status_code == 400
    assert "CSRF" in response.get_data(as_text=True)
    forged = gm_web.post(f"/gm/games/{gm_running_game.id}/pause", {"csrf_token": "forged"})
    assert forged.status_code == 400
    assert snapshot() == before
    assert gm_web.post(f"/gm/games/{gm_running_game.id}/pause").status_code == 302
    db.session.rollback()
    assert db.session.get(Game, gm_running_game.id).state == "paused"


def test_a_gm_signed_in_by_link_reaches_the_console(gm_web, gm_running_game):
    page = gm_web.get("/gm/")
    assert page.status_code == 200
    assert "Emerald" in page.get_data(as_text=True)


def test_nobody_but_its_gm_changes_tests_or_removes_a_games_chat_webhook(
        gm_running_game, gm_account, gm_web_as):
    from vpsleuth.services import webhooks

    webhooks.set_webhook(gm_running_game, "http://127.0.0.1:9/hooks/secret-Qx", "discord",
                         actor=GM_EMAIL)
    accounts.create_game_master(OTHER_GM, "Otto")
    g = f"/gm/games/{gm_running_game.id}"
    for intruder in (gm_web_as(ADA), gm_web_as(OTHER_GM)):
        before = snapshot()
        for path, data in ((f"{g}/webhook", {"url": "http://127.0.0.1:8/evil", "format": "slack"}),
                           (f"{g}/webhook/test", {}), (f"{g}/webhook/remove", {})):
            assert intruder.post(path, data).status_code == 404, path
        assert "secret-Qx" not in intruder.get(g).get_data(as_text=True)
        assert snapshot() == before
    db.session.rollback()
    assert db.session.scalars(select(GameWebhook.url)).all() == ["http://127.0.0.1:9/hooks/secret-Qx"]
