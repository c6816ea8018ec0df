"""The game board by API (/api/v1/games/{id}/board): read paged, post, delete one's own,
the GM hides and announces; plain text in JSON, every refusal with its reason."""

from __future__ import annotations

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, BoardPost
from vpsleuth.services import accounts, practice

from .helpers import error_of


def board(cast) -> str:
    return f"/games/{cast.game.id}/board"


def test_a_player_posts_and_everyone_of_the_game_reads_it_as_plain_text(api, cast):
    evil = "<script>alert('x')</script>\n<b>hi</b> https://example.org"
    response = api.post(board(cast), cast["ada"], {"body": evil})
    assert response.status_code == 201
    made = response.get_json()
    assert made["body"] == evil and made["author"] == "Ada" and made["mine"] is True
    assert made["state"] == "shown" and not made["pinned"] and not made["by_game_master"]
    for who in ("ben", "gm"):
        got = api.get(board(cast), cast[who]).get_json()
        assert [p["body"] for p in got["posts"]] == [evil] and got["next_before"] is None
        assert got["posts"][0]["mine"] is False
    assert api.get(f"/games/{cast.other.id}/board", cast["ada"]).status_code == 404
    assert api.get(board(cast), cast["cy"]).status_code == 404


def test_refusals_name_the_field_or_the_rule(api, cast):
    long = api.post(board(cast), cast["ada"], {"body": "x" * 2500})
    assert long.status_code == 400
    assert error_of(long)["message"] == ("a post may be at most 2,000 characters long; "
                                         "this one has 2,500")
    empty = api.post(board(cast), cast["ada"], {"body": " \n "})
    assert empty.status_code == 400 and "empty" in error_of(empty)["message"]
    wrong = api.post(board(cast), cast["ada"], {"body": 5})
    assert wrong.status_code == 400 and error_of(wrong)["message"] == "body: must be a string"
    huge = api.post(board(cast), cast["ada"], {"body": "y" * 1_048_576})
    assert huge.status_code == 413
    fake = api.post(board(cast), cast["ada"], {"body": "pinned?", "announce": True})
    assert fake.status_code == 403
    assert db.session.query(BoardPost).count() == 0


def test_the_flood_limit_is_a_429_with_the_time_to_wait(api, cast, app):
    app.config["BOARD_POSTS_PER_HOUR"] = 3
    try:
        for i in range(3):
            assert api.post(board(cast), cast["ben"], {"body": f"m{i}"}).status_code == 201
        refused = api.post(board(cast), cast["ben"], {"body": "m3"})
    finally:
        app.config["BOARD_POSTS_PER_HOUR"] = 10
    assert refused.status_code == 429 and error_of(refused)["code"] == "rate_limited"
    assert "posted 3 times" in error_of(refused)["message"]
    assert "again at" in error_of(refused)["message"]
    assert db.session.query(BoardPost).count() == 3


def test_delete_own_hide_by_the_gm_and_the_refusals(api, cast):
    post_id = api.post(board(cast), cast["ada"], {"body": "delete me"}).get_json()["id"]
    other_id = api.post(board(cast), cast["ben"], {"body": "hide me"}).get_json()["id"]
    assert api.post(f"{board(cast)}/{other_id}/delete", cast["ada"]).status_code == 403
    assert api.post(f"{board(cast)}/{other_id}/hide", cast["ada"]).status_code == 403
    assert api.post(f"{board(cast)}/{other_id}/hide", cast["other_gm"]).status_code == 404
    assert api.post(f"/games/{cast.other.id}/board/{other_id}/hide",
                    cast["other_gm"]).status_code == 404  # a post of another game
    deleted = api.post(f"{board(cast)}/{post_id}/delete", cast["ada"]).get_json()
    assert deleted["state"] == "deleted" and deleted["body"] is None
    hidden = api.post(f"{board(cast)}/{other_id}/hide", cast["gm"]).get_json()
    assert hidden["state"] == "hidden" and hidden["body"] == "hide me"  # the GM reads it
    seen = {p["id"]: p for p in api.get(board(cast), cast["ben"]).get_json()["posts"]}
    assert seen[other_id]["state"] == "hidden" and seen[other_id]["body"] is None
    assert seen[post_id]["state"] == "deleted" and seen[post_id]["body"] is None
    assert db.session.get(BoardPost, other_id).body == "hide me"
    assert db.session.query(AuditEntry).filter_by(action="hide_board_post").count() == 1


def test_the_gm_announces_and_the_announcement_leads_every_first_page(api, cast):
    for i in range(3):
        api.post(board(cast), cast["ada"], {"body": f"chat {i}"})
    note = api.post(board(cast), cast["gm"], {"body": "Deadline moved", "announce": True})
    assert note.status_code == 201
    assert note.get_json()["pinned"] and note.get_json()["author"] == "the game master"
    api.post(board(cast), cast["ben"], {"body": "thanks"})
    first = api.get(f"{board(cast)}?size=2", cast["ada"]).get_json()
    assert [p["body"] for p in first["posts"]] == ["Deadline moved", "thanks", "chat 2"]
    second = api.get(f"{board(cast)}?size=2&before={first['next_before']}",
                     cast["ada"]).get_json()
    assert [p["body"] for p in second["posts"]] == ["chat 1", "chat 0"]
    assert second["next_before"] is None
    assert api.get(f"{board(cast)}?size=0", cast["ada"]).status_code == 400


def test_a_practice_game_has_no_board(api, app):
    game = practice.create_practice("solo@example.org", name="Solo", bots=2, level="easy")
    token = accounts.issue_api_token(player=practice.human_of(game))[1]
    assert api.get(f"/games/{game.id}/board", token).status_code == 404
    refused = api.post(f"/games/{game.id}/board", token, {"body": "hi"})
    assert refused.status_code == 404 and "no board" in error_of(refused)["message"]
