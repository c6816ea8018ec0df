"""The board in the archive of a finished public game, and a person's posts when they
ask for their data or leave (services/board.forget, export)."""

from __future__ import annotations

import json

import pytest
from conftest import request_client
from record_support import new_game, play

from vpsleuth.extensions import db
from vpsleuth.models import BoardPost
from vpsleuth.services import accounts, board, leaving, personal_data, seats, transfer
from vpsleuth.services.access import Forbidden, viewer_for

GAIL, ADA, BEN = "gail@example.org", "ada@example.org", "ben@example.org"


def finished_game(public: bool = True):
    gail = accounts.create_game_master(GAIL, "Gail")
    game = new_game("Zircon Vault", gail, {"Ada": ADA, "Ben": BEN}, public=public)
    ada, ben = game.players
    board.post(game, "Good luck!\n<i>all</i>", player=ada, channel="web")
    board.hide(board.post(game, "rude", player=ben, channel="web"), actor=GAIL)
    board.delete(board.post(game, "typo", player=ada, channel="web"), player=ada)
    board.announce(game, "Last round this week", actor=GAIL, channel="web")
    return play(game)


def test_the_archive_shows_the_board_hidden_as_hidden_deleted_as_deleted(app):
    game = finished_game()
    text = request_client(app).get(f"/archive/{game.id}").get_data(as_text=True)
    assert 'id="archive-board"' in text
    assert ">Good luck!\n&lt;i&gt;all&lt;/i&gt;</p>" in text
    assert "Hidden by the game master." in text and "rude" not in text
    assert "Deleted by its author." in text and "typo" not in text
    assert "Last round this week" in text and "The game master" in text
    assert ADA not in text and BEN not in text
    assert text.index("Good luck!") < text.index("Last round this week")  # oldest first


def test_a_private_game_has_no_archive_page_and_so_no_board_in_public(app):
    game = finished_game(public=False)
    assert request_client(app).get(f"/archive/{game.id}").status_code == 404


def test_a_leavers_posts_lose_text_and_name_and_their_data_holds_them(app):
    game = finished_game()
    data = personal_data.export(viewer_for(ADA))["tables"]
    bodies = sorted(row["body"] for row in data["board_post"])
    assert bodies == ["", "Good luck!\n<i>all</i>"]  # the deleted one has no text left
    assert all(row["author"] == "Ada" for row in data["board_post"])
    leaving.delete_account(viewer_for(ADA))
    db.session.commit()
    ada_posts = db.session.query(BoardPost).filter_by(player_id=game.players[0].id).all()
    assert all(p.body == "" and p.author == "" and p.deleted_at for p in ada_posts)
    ben_post = db.session.query(BoardPost).filter_by(player_id=game.players[1].id).one()
    assert ben_post.body == "rude" and ben_post.author == "Ben"  # others' rows stay
    shown = [board.author_of(p, "en") for p in ada_posts]
    assert all(name.startswith("former player ") for name in shown)
    page = request_client(app).get(f"/archive/{game.id}").get_data(as_text=True)
    assert "Good luck!" not in page and page.count("Deleted by its author.") == 2


def test_the_game_export_carries_the_board_and_an_import_restores_it(app):
    game = finished_game()
    data = transfer.export_game(game)
    assert [(b["body"], b["pinned"]) for b in data["board"]] == [
        ("Good luck!\n<i>all</i>", False), ("rude", False), ("", False),
        ("Last round this week", True)]
    copy = transfer.import_game(json.loads(transfer.dumps(data)), name="Zircon Copy")
    posts = board.all_posts(copy)
    assert [p.body for p in posts] == [b["body"] for b in data["board"]]
    assert posts[1].hidden_at is not None and posts[2].deleted_at is not None
    assert posts[3].player_id is None
    assert {p.player.name for p in posts if p.player} == {"Ada", "Ben"}
    assert all(p.player.game_id == copy.id for p in posts if p.player)
    del data["board"]  # an export made before the board still imports
    assert board.all_posts(transfer.import_game(data, name="Older")) == []


def test_a_seat_handed_on_keeps_the_earlier_holders_posts_theirs(app):
    gail = accounts.create_game_master(GAIL, "Gail")
    game = new_game("Opal Harbour", gail, {"Ada": ADA, "Ben": BEN})
    ada = game.players[0]
    earlier = board.post(game, "Ada was here", player=ada, channel="web")
    seats.replace_player(game, ada, "Dora", "dora@example.org", actor=GAIL)
    db.session.commit()
    dora = db.session.get(type(ada), ada.id)
    mine = board.post(game, "Dora now", player=dora, channel="web")
    with pytest.raises(Forbidden):  # the earlier holder's post is not the newcomer's
        board.delete(earlier, player=dora)
    assert earlier.body == "Ada was here"
    newcomer = personal_data.export(viewer_for("dora@example.org"))["tables"]["board_post"]
    assert [row["body"] for row in newcomer] == ["Dora now"]
    old = personal_data.export(viewer_for(ADA))["tables"]["board_post"]
    assert [row["body"] for row in old] == ["Ada was here"]
    leaving.delete_account(viewer_for(ADA))
    db.session.commit()
    assert (earlier.body, earlier.author) == ("", "") and mine.body == "Dora now"
