"""The game board on the web (/games/<id>/board): players and the GM, through the Flask
client with CSRF; plain text only, refusals on the page with the text kept."""

from __future__ import annotations

import re

import pytest
from conftest import CSRF, PLAYERS

from vpsleuth.extensions import db
from vpsleuth.models import BoardPost
from vpsleuth.services import board, games, practice


@pytest.fixture
def lapis(make_game, gm_account):
    """Ada, Ben and Cleo in a running game run by the GM account (gm@example.org)."""
    game = make_game("Lapis", start=False)
    game.game_master_id = gm_account.id
    games.start_game(game, seed=3)
    return game


def send(client, path: str, **fields):
    token = CSRF.search(client.get("/signin").get_data(as_text=True)).group(1)
    return client.post(path, data={"csrf_token": token, **fields})


def page(client, game, query: str = "") -> str:
    response = client.get(f"/games/{game.id}/board{query}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_data(as_text=True)


def test_the_game_page_links_the_board_and_a_post_appears_on_it(lapis, ada):
    overview = ada.get(f"/games/{lapis.id}").get_data(as_text=True)
    assert f'href="/games/{lapis.id}/board" id="board-link"' in overview
    response = send(ada, f"/games/{lapis.id}/board", body="Hello table!\nSecond line")
    assert response.status_code == 302
    text = page(ada, lapis)
    assert "Your post is on the board." in text
    assert '<p class="post-body" id="post-' in text and ">Hello table!\nSecond line</p>" in text
    assert 'class="post-author">Ada</span>' in text and 'id="delete-' in text


def test_html_a_script_and_a_link_are_shown_as_text_never_rendered(lapis, ada, signed_in):
    evil = ('<script>alert(1)</script> <b>bold</b> <a href="https://x.example">x</a> '
            'https://example.org/page?a=1&b=2')
    send(ada, f"/games/{lapis.id}/board", body=evil)
    text = page(signed_in(PLAYERS["Ben"]), lapis)
    assert "<script>alert(1)" not in text and "<b>bold</b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt;" in text
    assert 'href="https://x.example"' not in text and 'href="https://example.org' not in text
    assert "https://example.org/page?a=1&amp;b=2" in text
    assert db.session.query(BoardPost).one().body == evil  # stored as written


def test_a_refused_post_keeps_its_text_and_says_why(lapis, ada):
    long = "z" * 2001
    response = send(ada, f"/games/{lapis.id}/board", body=long)
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert "A post may be at most 2,000 characters long; this one has 2,001." in text
    assert f">{long}</textarea>" in text and 'aria-invalid="true"' in text
    empty = send(ada, f"/games/{lapis.id}/board", body="   ")
    assert empty.status_code == 400 and "The post is empty" in empty.get_data(as_text=True)
    assert db.session.query(BoardPost).count() == 0


def test_the_flood_limit_answers_429_with_the_reason(lapis, ada, app):
    app.config["BOARD_POSTS_PER_HOUR"] = 2
    try:
        for i in range(2):
            assert send(ada, f"/games/{lapis.id}/board", body=f"n{i}").status_code == 302
        response = send(ada, f"/games/{lapis.id}/board", body="third")
    finally:
        app.config["BOARD_POSTS_PER_HOUR"] = 10
    assert response.status_code == 429
    text = response.get_data(as_text=True)
    assert "You have posted 2 times on the board in the last hour" in text
    assert ">third</textarea>" in text


def test_own_delete_and_someone_elses_refused(lapis, ada, signed_in):
    send(ada, f"/games/{lapis.id}/board", body="oops")
    post = db.session.query(BoardPost).one()
    ben = signed_in(PLAYERS["Ben"])
    assert f'id="delete-{post.id}"' not in page(ben, lapis)
    assert send(ben, f"/games/{lapis.id}/board/{post.id}/delete").status_code == 403
    assert send(ben, f"/games/{lapis.id}/board/{post.id}/hide").status_code == 403
    db.session.refresh(post)
    assert post.body == "oops" and post.deleted_at is None and post.hidden_at is None
    assert send(ada, f"/games/{lapis.id}/board/{post.id}/delete").status_code == 302
    text = page(ben, lapis)
    assert "Deleted by its author." in text and "oops" not in text


def test_the_gm_hides_with_a_confirm_and_players_see_it_hidden(lapis, ada, gm_web, signed_in):
    send(ada, f"/games/{lapis.id}/board", body="a rude word")
    post = db.session.query(BoardPost).one()
    gm_page = gm_web.get(f"/games/{lapis.id}/board").get_data(as_text=True)
    assert re.search(rf'board/{post.id}/hide" data-confirm="Hide this post\?', gm_page)
    assert gm_web.post(f"/games/{lapis.id}/board/{post.id}/hide").status_code == 302
    text = page(signed_in(PLAYERS["Ben"]), lapis)
    assert "Hidden by the game master." in text and "a rude word" not in text
    gm_page = gm_web.get(f"/games/{lapis.id}/board").get_data(as_text=True)
    assert "Hidden by the game master." in gm_page and "a rude word" in gm_page
    assert "Only you still read its text." in gm_page
    assert f'id="hide-{post.id}"' not in gm_page


def test_the_gm_announces_on_the_web_and_it_is_pinned_first(lapis, ada, gm_web):
    send(ada, f"/games/{lapis.id}/board", body="first!")
    response = gm_web.post(f"/games/{lapis.id}/board",
                           {"body": "Round 2 runs a day longer", "announce": "1"})
    assert response.status_code == 302
    send(ada, f"/games/{lapis.id}/board", body="noted")
    text = page(ada, lapis)
    pinned = text.index("Round 2 runs a day longer")
    assert pinned < text.index("noted") < text.index("first!")
    assert 'class="badge pinned-badge">Announcement' in text
    assert "The game master" in text[pinned - 400:pinned]
    note = db.session.query(BoardPost).filter_by(pinned=True).one()
    assert note.player_id is None and note.channel == "web"
    assert 'name="announce"' not in page(ada, lapis)  # only the GM announces
    send(ada, f"/games/{lapis.id}/board", body="fake", announce="1")
    assert db.session.query(BoardPost).filter_by(pinned=True).count() == 1


def test_the_board_pages_by_twenty(lapis, ada):
    player = games.find_player(lapis, "Ada")
    for i in range(25):
        db.session.add(BoardPost(game_id=lapis.id, player_id=player.id, author="Ada",
                                 body=f"number {i}", channel="web"))
    db.session.commit()
    first = page(ada, lapis)
    assert "number 24" in first and "number 5<" in first and "number 4<" not in first
    older = re.search(r'href="([^"]+)" id="board-older"', first).group(1).replace("&amp;", "&")
    second = ada.get(older).get_data(as_text=True)
    assert "number 4<" in second and "number 0<" in second and "number 5<" not in second
    assert 'id="board-older"' not in second and 'id="board-newest"' in second


def test_an_ended_game_shows_the_board_closed(lapis, ada):
    board.post(lapis, "gg", player=games.find_player(lapis, "Ada"), channel="web")
    lapis.state = "finished"
    db.session.commit()
    text = page(ada, lapis)
    assert "its board is closed" in text and 'id="board-form"' not in text and "gg" in text
    response = send(ada, f"/games/{lapis.id}/board", body="late")
    assert response.status_code == 409 and "has ended" in response.get_data(as_text=True)


def test_a_practice_game_and_another_games_player_get_404(lapis, make_game, signed_in):
    other = make_game("Other", players={"Zed": "zed@example.org"})
    zed = signed_in("zed@example.org")
    assert zed.get(f"/games/{lapis.id}/board").status_code == 404
    assert send(zed, f"/games/{lapis.id}/board", body="hi").status_code == 404
    solo = practice.create_practice("solo@example.org", name="Solo", bots=2, level="easy")
    db.session.commit()
    me = signed_in("solo@example.org")
    assert me.get(f"/games/{solo.id}/board").status_code == 404
    assert 'id="board-link"' not in me.get(f"/games/{solo.id}").get_data(as_text=True)
    assert other.id != lapis.id


def test_pages_in_german_and_spanish(lapis, ada):
    for lang, words in (("de", "Pinnwand"), ("es", "Tablón")):
        ada.get(f"/lang/{lang}")
        assert words in page(ada, lapis)



def test_the_gm_console_announces_and_returns_to_the_console(lapis, gm_web):
    console = gm_web.get(f"/gm/games/{lapis.id}").get_data(as_text=True)
    assert 'id="announce-body"' in console and 'id="gm-board-link"' in console
    response = gm_web.post(f"/games/{lapis.id}/board",
                           {"body": "Welcome, all", "announce": "1", "back": "console"})
    assert response.status_code == 302 and response.headers["Location"] == \
        f"/gm/games/{lapis.id}"
    note = db.session.query(BoardPost).one()
    assert note.pinned and note.body == "Welcome, all"
    refused = gm_web.post(f"/games/{lapis.id}/board",
                          {"body": "", "announce": "1", "back": "console"})
    assert refused.status_code == 400 and "The post is empty" in refused.get_data(as_text=True)
    assert 'name="announce" value="1" id="board-announce" checked' in \
        refused.get_data(as_text=True)
