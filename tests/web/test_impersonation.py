"""A game master cannot become anybody else: the attack walked through real HTTP.

Mallory, a GM, invites Vera's address into a game of Mallory's, reads the
invitation on her Outbox page and uses its link. Vera is a GM with a game of
her own and plays in Grace's game. Before the fix the link signed Mallory in
as Vera: Vera's games, Vera's distribution (audited as Vera), a turn in
Grace's game. Now the link is good for Mallory's game alone.
"""

from __future__ import annotations

import re

import pytest
import requests
from browser_support import serve
from conftest import gm_deadline
from http_support import Browser
from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, Game, OutboxMessage, TurnVersion
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games

LINK = re.compile(r"/signin/([\w.\-]+)")
VERA, MALLORY, GRACE = "vera@example.org", "mallory@example.org", "grace@example.org"


def _game(name: str, gm_email: str, players: dict[str, str]) -> Game:
    gm = accounts.create_game_master(gm_email, gm_email.split("@")[0].title())
    game = games.create_game(name, weekly(gm_deadline(), "Europe/Berlin"), actor=gm_email,
                             game_master_id=gm.id)
    for player_name, email in players.items():
        games.add_player(game, player_name, email, actor=gm_email)
    games.start_game(game, seed=3, actor=gm_email)
    return game


def _count(model, *where) -> int:
    db.session.rollback()
    return db.session.scalar(select(func.count()).select_from(model).where(*where))


@pytest.fixture
def served(app):
    """Vera's own game, Grace's game with Vera in it, Mallory's game; served for real."""
    vera_game = _game("Vera's Table", VERA, {"Pat": "pat@example.org", "Quinn": "q@example.org"})
    grace_game = _game("Grace's Table", GRACE, {"Vera": VERA, "Rae": "rae@example.org"})
    mallory_game = games.create_game(
        "Mallory's Trap", weekly(gm_deadline(), "Europe/Berlin"), actor=MALLORY,
        game_master_id=accounts.create_game_master(MALLORY, "Mallory").id)
    with serve(app) as base:
        yield base, vera_game.id, grace_game.id, mallory_game.id


def test_a_gm_who_invites_another_gms_address_cannot_become_that_gm(served):
    base, vera_game, grace_game, trap = served
    mallory = Browser(base).sign_in(MALLORY)
    invited = mallory.post(f"/gm/games/{trap}/players",
                           {"name": "Vera", "email": VERA, "language": "en"},
                           form_page=f"/gm/games/{trap}")
    assert invited.status_code == 302
    db.session.rollback()
    mail = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "invitation", OutboxMessage.game_id == trap)).one()
    real_token = LINK.search(mail.body_text).group(1)

    # The Outbox never shows the link in full ...
    page = mallory.get(f"/gm/outbox/{mail.id}").text
    assert real_token not in page and "/signin/…" in page
    # ... and forwarding gives a link of the invitation's kind, audited.
    forwarded = mallory.post(f"/gm/outbox/{mail.id}/forward", form_page=f"/gm/outbox/{mail.id}")
    assert forwarded.status_code == 200
    token = LINK.search(forwarded.text).group(1)
    assert _count(AuditEntry, AuditEntry.action == "forward_invitation",
                  AuditEntry.actor == MALLORY) == 1

    # Mallory, in a fresh browser, opens Vera's links: the forwarded one and the mailed one.
    for link in (token, real_token):
        as_vera = Browser(base)
        opened = as_vera.open_link(link)
        assert opened.status_code == 302
        assert opened.headers["Location"].endswith(f"/games/{trap}")
        assert as_vera.get(f"/games/{trap}").status_code == 200  # what the invitation is for
        home = as_vera.get("/").text
        assert "Mallory&#39;s Trap" in home or "Mallory's Trap" in home
        assert "Vera&#39;s Table" not in home and "Grace&#39;s Table" not in home
        # Not Vera the GM: no console, no distribution, no audit entry as Vera.
        assert as_vera.get("/gm/").status_code == 403
        assert as_vera.get(f"/gm/games/{vera_game}").status_code == 404
        assert as_vera.post(f"/gm/games/{vera_game}/distribution", {"confirm": "yes"},
                            form_page=f"/games/{trap}").status_code == 404
        assert _count(AuditEntry, AuditEntry.action == "view_distribution") == 0
        # Not Vera the player of Grace's game: no page, no turn.
        assert as_vera.get(f"/games/{grace_game}").status_code == 404
        assert as_vera.post(f"/games/{grace_game}/turn", {"text": "TIP A RD1"},
                            form_page=f"/games/{trap}").status_code == 404
        assert _count(TurnVersion) == 0
        # Through the API: a token made there is the invited player's alone.
        made = as_vera.post("/settings", {"action": "token", "player_id": _vera_in(trap)},
                            form_page="/settings")
        assert made.status_code == 200
        raw = re.search(r"vps_[\w-]+", made.text).group(0)
        listed = requests.get(f"{base}/api/v1/games", timeout=10,
                              headers={"Authorization": f"Bearer {raw}"}).json()
        assert [g["id"] for g in listed["games"]] == [trap]
        for game_id in (vera_game, grace_game):
            answer = requests.get(f"{base}/api/v1/games/{game_id}", timeout=10,
                                  headers={"Authorization": f"Bearer {raw}"})
            assert answer.status_code == 404
        assert as_vera.post("/gm/tokens", {"label": "x"}, form_page="/").status_code == 403


def _vera_in(game_id: int) -> int:
    db.session.rollback()
    game = db.session.get(Game, game_id)
    return next(p.id for p in game.players if p.email == VERA)


def test_vera_herself_signs_in_fully_only_with_a_link_she_asked_for(served):
    base, vera_game, grace_game, trap = served
    vera = Browser(base).sign_in(VERA)
    assert vera.get(f"/gm/games/{vera_game}").status_code == 200
    assert vera.get(f"/games/{grace_game}").status_code == 200


def test_an_invitation_does_not_downgrade_a_full_session_of_the_same_address(served):
    base, vera_game, grace_game, trap = served
    games.add_player(db.session.get(Game, trap), "Vera", VERA, actor=MALLORY)
    token = LINK.search(db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "invitation", OutboxMessage.game_id == trap)).one()
        .body_text).group(1)
    vera = Browser(base).sign_in(VERA)
    assert vera.open_link(token).headers["Location"].endswith(f"/games/{trap}")
    assert vera.get(f"/gm/games/{vera_game}").status_code == 200
