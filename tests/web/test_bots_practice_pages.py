"""Computer players on the GM's game page, and practice games started from the web."""

from __future__ import annotations

import html
import re

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Game, OutboxMessage, Player, TurnVersion
from vpsleuth.services import accounts


def words(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(response.get_data(as_text=True)))
                    .split())


def test_the_gm_adds_a_bot_in_setup_and_the_page_marks_it(gm_web, gm_setup_game):
    response = gm_web.post(f"/gm/games/{gm_setup_game.id}/bots",
                           data={"name": "Robo", "level": "hard"})
    assert response.status_code == 302
    bot = db.session.scalar(select(Player).where(Player.name == "Robo"))
    assert bot.bot_level == "hard" and bot.game_id == gm_setup_game.id
    page = words(gm_web.get(f"/gm/games/{gm_setup_game.id}"))
    assert "Robo 🤖 bot: hard" in page and bot.email not in page


def test_a_bot_added_during_the_game_sends_its_turn_at_once(gm_web, gm_running_game):
    gm_web.post(f"/gm/games/{gm_running_game.id}/bots", data={"name": "Late", "level": "easy"})
    bot = db.session.scalar(select(Player).where(Player.name == "Late"))
    (version,) = db.session.scalars(select(TurnVersion).where(TurnVersion.player_id == bot.id))
    assert version.channel == "bot" and version.status == "accepted"
    board = words(gm_web.get(f"/gm/games/{gm_running_game.id}/board"))
    assert "Late 🤖 bot" in board and "computer player" in board


def test_a_bad_level_is_refused_on_the_page(gm_web, gm_setup_game):
    response = gm_web.post(f"/gm/games/{gm_setup_game.id}/bots",
                           data={"name": "Robo", "level": "genius"})
    assert response.status_code == 400 and "level is one of easy, medium, hard" in words(response)
    assert db.session.scalar(select(Player).where(Player.name == "Robo")) is None


def test_another_gm_cannot_add_a_bot_to_the_game(app, gm_web_as, gm_setup_game):
    accounts.create_game_master("otto@example.org", "Otto")
    otto = gm_web_as("otto@example.org")
    response = otto.post(f"/gm/games/{gm_setup_game.id}/bots", data={"name": "X", "level": "easy"})
    assert response.status_code == 404 and "Emerald" not in response.get_data(as_text=True)
    assert db.session.scalar(select(Player).where(Player.name == "X")) is None


def test_a_player_practises_from_the_home_page_and_rounds_resolve_at_once(gm_web_as,
                                                                          gm_setup_game):
    ada = gm_web_as("ada@example.org")
    home = ada.get("/")
    assert 'href="/practice"' in home.get_data(as_text=True)
    response = ada.post("/practice", data={"bots": "2", "level": "medium", "name": "Ada"})
    assert response.status_code == 302
    game = db.session.scalar(select(Game).where(Game.practice))
    assert response.headers["Location"].endswith(f"/games/{game.id}/turn")
    assert game.game_master_id is None and [p.is_bot for p in game.players] == [False, True, True]
    saved = ada.post(f"/games/{game.id}/turn",
                     data={"action": "text", "round": "1", "text": "QUESTION A blue\nTIP X RD1"})
    assert saved.status_code in (200, 302, 303), words(saved)
    db.session.rollback()
    game = db.session.get(Game, game.id)
    assert game.round(1).state == "resolved" and game.open_round.number == 2
    page = words(ada.get(f"/games/{game.id}"))
    assert "Practice" in page and "Babbage (bot) ✓ sent" in page
    mails = db.session.scalars(select(OutboxMessage.to_addr).where(
        OutboxMessage.game_id == game.id)).all()
    assert mails == []
    assert game.id not in [g.id for g in games_listed_open(ada)]


def games_listed_open(client) -> list[Game]:
    page = client.get("/games/open").get_data(as_text=True)
    return [g for g in db.session.scalars(select(Game)) if f'id="game-{g.id}"' in page]


def test_a_practice_form_with_no_bots_is_refused(gm_web_as, gm_setup_game):
    ada = gm_web_as("ada@example.org")
    response = ada.post("/practice", data={"bots": "0", "level": "easy"})
    assert response.status_code == 400 and "1 to 6 computer players" in words(response)
    assert db.session.scalar(select(Game).where(Game.practice)) is None
