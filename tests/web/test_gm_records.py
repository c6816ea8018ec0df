"""The audit log, the outbox, API tokens, and ``vpsleuth gm add``."""

from __future__ import annotations

import html
import re

from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.i18n.dates import deadline_text
from vpsleuth.models import ApiToken, AuditEntry, GameMaster, OutboxMessage
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games

GM_EMAIL = "gm@example.org"


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def test_the_audit_log_shows_every_action_with_time_actor_and_details(gm_web, gm_running_game):
    gm_web.post(f"/gm/games/{gm_running_game.id}/pause")
    page = text(gm_web.get(f"/gm/games/{gm_running_game.id}/audit"))
    db.session.rollback()
    entries = db.session.scalars(select(AuditEntry).where(
        AuditEntry.game_id == gm_running_game.id).order_by(AuditEntry.id.desc())).all()
    assert [e.action for e in entries] == ["pause_game", "start_game", "add_player",
                                           "add_player", "create_game"]
    labels = re.findall(r'<span class="action">([^<]+)</span>', page)
    assert labels == ["game paused", "game started", "player invited", "player invited",
                      "game created"]
    assert deadline_text(entries[0].at, "Europe/Berlin") in page  # the game's zone
    assert page.count(GM_EMAIL) >= 5
    plain = re.sub(r"<[^>]+>", "", page)
    assert "Bob <bob@example.org>" in page
    assert f"commitment: {gm_running_game.commitment}" in plain
    assert gm_running_game.secret.distribution not in page


def test_the_outbox_lists_the_mails_of_the_gms_games_with_status_and_filters(
        gm_web, gm_running_game, gm_account):
    stranger = games.create_game("Not mine", weekly("2031-01-05 20:00", "UTC"))
    games.add_player(stranger, "Zed", "zed@example.org")
    sent = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.to_addr == "ada@example.org", OutboxMessage.kind == "invitation")).one()
    sent.status = "sent"
    db.session.commit()
    page = text(gm_web.get("/gm/outbox"))
    rows = re.findall(r"<tr>\s*<td data-label=\"Queued\".*?</tr>", page, re.S)
    assert len(rows) == 4  # two invitations, two round_opened mails
    assert "zed@example.org" not in page
    assert "You are invited to the VP-Sleuth game \"Emerald\"" in page
    waiting = text(gm_web.get("/gm/outbox?status=pending"))
    assert len(re.findall(r'class="pill mail-pending">waiting<', waiting)) == 3
    assert 'class="pill mail-sent"' not in waiting
    only_sent = text(gm_web.get("/gm/outbox?status=sent"))
    assert len(re.findall(r'class="pill mail-sent">sent<', only_sent)) == 1
    assert "No mails here." in text(gm_web.get("/gm/outbox?status=failed"))


def test_a_long_outbox_comes_in_pages_newest_first(gm_web, gm_running_game, monkeypatch):
    from vpsleuth.web.gm import records

    monkeypatch.setattr(records, "OUTBOX_PAGE", 3)
    ids = db.session.scalars(select(OutboxMessage.id).order_by(OutboxMessage.id)).all()
    assert len(ids) == 4
    first = text(gm_web.get("/gm/outbox"))
    second = text(gm_web.get("/gm/outbox?page=2"))
    links = lambda page: [int(i) for i in re.findall(r'href="/gm/outbox/(\d+)"', page)]  # noqa: E731
    assert links(first) == ids[:0:-1] and links(second) == ids[:1]
    assert "<span>1 / 2</span>" in first and "page=2" in first
    assert "<span>2 / 2</span>" in second and "page=1" in second


def test_a_mail_opens_with_its_text_body_to_read_or_forward(gm_web, gm_running_game):
    mail = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "invitation", OutboxMessage.to_addr == "bob@example.org")).one()
    response = gm_web.get(f"/gm/outbox/{mail.id}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    page = text(response)
    link = re.search(r"/signin/[\w.\-]+", mail.body_text).group(0)
    assert mail.body_text.replace(link, "/signin/…").strip() in page
    assert link not in page, "the GM never sees another address's link in full"
    assert re.search(r'<dd class="email" id="mail-to">bob@example.org</dd>', page)
    assert gm_web.get("/gm/outbox/99999").status_code == 404


def test_an_api_token_is_shown_once_and_works_until_revoked(gm_web, gm_account):
    response = gm_web.post("/gm/tokens", {"label": "spreadsheet"})
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    raw = re.search(r'<code class="hash" id="new-token">(vps_[\w-]+)</code>',
                    text(response)).group(1)
    token = accounts.token_for(raw)
    assert token is not None and token.game_master_id == gm_account.id
    assert token.label == "spreadsheet"
    listing = text(gm_web.get("/gm/tokens"))
    assert raw not in listing and "spreadsheet" in listing
    assert gm_web.post(f"/gm/tokens/{token.id}/revoke").status_code == 302
    db.session.rollback()
    assert accounts.token_for(raw) is None
    log = text(gm_web.get("/gm/tokens"))
    assert "API token issued" in log and "API token revoked" in log
    db.session.rollback()
    entries = db.session.scalars(select(AuditEntry).where(AuditEntry.game_id.is_(None))
                                 .order_by(AuditEntry.id)).all()
    assert [(e.action, e.actor) for e in entries] == [("issue_api_token", GM_EMAIL),
                                                      ("revoke_api_token", GM_EMAIL)]
    assert raw not in " ".join(e.detail for e in entries)


def test_a_token_label_longer_than_eighty_characters_is_refused(gm_web):
    response = gm_web.post("/gm/tokens", {"label": "x" * 81})
    assert response.status_code == 400
    assert "Field cannot be longer than 80 characters." in text(response)
    assert db.session.scalar(select(func.count()).select_from(ApiToken)) == 0


def test_gm_add_creates_a_game_master_account(runner):
    result = runner.invoke(args=["gm", "add", "Grace@Example.org", "Grace Hopper",
                                 "--language", "de"])
    assert result.exit_code == 0, result.output
    assert "Game master Grace Hopper <Grace@Example.org> added" in result.output
    assert "/signin" in result.output
    db.session.rollback()
    gm = db.session.scalars(select(GameMaster)).one()
    assert (gm.email, gm.name, gm.language) == ("Grace@Example.org", "Grace Hopper", "de")


def test_gm_add_refuses_a_bad_or_taken_address(runner):
    assert runner.invoke(args=["gm", "add", "grace@example.org", "Grace"]).exit_code == 0
    taken = runner.invoke(args=["gm", "add", "GRACE@example.org", "Other"])
    assert taken.exit_code == 1
    assert "GRACE@example.org is a game master already" in taken.output
    bad = runner.invoke(args=["gm", "add", "grace-at-example", "Grace"])
    assert bad.exit_code == 1
    assert "'grace-at-example' is not an email address" in bad.output
    wrong_language = runner.invoke(args=["gm", "add", "x@example.org", "X", "--language", "fr"])
    assert wrong_language.exit_code == 2
    db.session.rollback()
    assert db.session.scalar(select(func.count()).select_from(GameMaster)) == 1


def test_gm_help_lists_the_add_command(runner):
    result = runner.invoke(args=["gm", "--help"])
    assert result.exit_code == 0
    assert re.search(r"add\s+Create a game master account", result.output)
