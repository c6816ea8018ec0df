"""The pages speak the signed-in person's own language; before sign-in, the browser's."""

from __future__ import annotations

import re

from conftest import CSRF, GmWeb, sign_in

from vpsleuth.extensions import db
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, auth, games

ENGLISH_BROWSER = {"Accept-Language": "en-GB,en;q=0.9"}
GERMAN_BROWSER = {"Accept-Language": "de-DE,de;q=0.9"}


def page_language(client, path: str = "/", headers=ENGLISH_BROWSER) -> str:
    page = client.get(path, headers=headers).get_data(as_text=True)
    return re.search(r'<html lang="(\w+)">', page).group(1)


def game_with(name: str, email: str, language: str, *, start: bool = True):
    game = games.create_game(name, weekly("2030-01-10 20:00", "Europe/Berlin"))
    games.add_player(game, "Ada", email, language=language)
    if start:
        games.start_game(game, seed=3)
    return game


def test_before_sign_in_the_browser_chooses(client):
    assert page_language(client, "/signin", ENGLISH_BROWSER) == "en"
    assert page_language(client, "/signin", GERMAN_BROWSER) == "de"


def test_a_german_player_reads_german_pages_in_an_english_browser(client):
    game_with("Moonstone", "ada@example.org", "de")
    sign_in(client, "ada@example.org")
    assert page_language(client) == "de"
    assert "Deine Partien" in client.get("/", headers=ENGLISH_BROWSER).get_data(as_text=True)


def test_the_language_switch_wins_for_the_rest_of_the_session(client):
    game_with("Moonstone", "ada@example.org", "de")
    sign_in(client, "ada@example.org")
    client.get("/lang/en")
    assert page_language(client, headers=GERMAN_BROWSER) == "en"


def test_a_changed_setting_changes_the_pages_at_once(client):
    game = game_with("Moonstone", "ada@example.org", "en")
    sign_in(client, "ada@example.org")
    assert page_language(client, headers=GERMAN_BROWSER) == "en"
    player = games.find_player(game, "Ada")
    token = CSRF.search(client.get("/settings").get_data(as_text=True)).group(1)
    answer = client.post("/settings", data={
        "csrf_token": token, "player_id": player.id, "language": "de", "timezone": "",
        "wants_round_mail": "y"})
    assert answer.status_code == 302
    assert page_language(client) == "de"


def test_with_several_games_the_newest_running_one_speaks(client):
    game_with("Old", "ada@example.org", "en")
    game_with("New", "ada@example.org", "de")
    finished = game_with("Newest but over", "ada@example.org", "en")
    finished.state = "finished"
    db.session.commit()
    sign_in(client, "ada@example.org")
    assert page_language(client) == "de"


def test_an_invitation_session_speaks_its_own_players_language(app, client):
    german = game_with("Alpha", "ada@example.org", "de")
    game_with("Beta", "ada@example.org", "en")
    player = games.find_player(german, "Ada")
    token = auth.issue_token(player.email, purpose="invitation", player=player)
    db.session.commit()
    page = client.get(f"/signin/{token}").get_data(as_text=True)
    client.post(f"/signin/{token}", data={"csrf_token": CSRF.search(page).group(1)})
    assert page_language(client) == "de"


def test_a_game_master_reads_the_pages_in_the_accounts_language(app):
    accounts.create_game_master("gina@example.org", "Gina", "de")
    gm = GmWeb(app, app.test_client()).sign_in("gina@example.org")
    page = gm.get("/gm/", headers=ENGLISH_BROWSER).get_data(as_text=True)
    assert '<html lang="de">' in page
