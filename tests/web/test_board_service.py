"""The game board's rules (services/board.py): every refusal says what is wrong, and
nothing stored is lost or dropped silently."""

from __future__ import annotations

from datetime import timedelta

import pytest

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, BoardPost, utcnow
from vpsleuth.services import access, board, events, games, practice
from vpsleuth.services.errors import Invalid, NotFound, WrongState


def ada_of(game):
    return games.find_player(game, "Ada")


def test_a_post_is_stored_trimmed_and_the_signal_says_it_is_no_announcement(moonstone):
    heard = []

    def hear(sender, **payload):
        heard.append((sender, payload))

    events.board_posted.connect(hear)
    try:
        post = board.post(moonstone, "  Hello all!\r\nGood luck.\x00  \n\n",
                          player=ada_of(moonstone), channel="web")
    finally:
        events.board_posted.disconnect(hear)
    assert post.body == "Hello all!\nGood luck." and post.author == "Ada"
    assert heard == [(moonstone, {"post": post, "announcement": False})]


def test_a_mailed_post_loses_its_quote_and_signature_a_web_post_keeps_them(moonstone):
    mail = "See you all!\n\nOn Mon, 1 Dec 2026, VP-Sleuth wrote:\n> the round mail\n-- \nAda L."
    assert board.post(moonstone, mail, player=ada_of(moonstone), channel="email").body == \
        "See you all!"
    web = board.post(moonstone, "> quoting myself\n-- \nlike this", player=ada_of(moonstone),
                     channel="web")
    assert web.body == "> quoting myself\n--\nlike this"


def test_an_interleaved_quote_leaves_one_gap_and_the_greeting_goes_as_for_turns(moonstone):
    mail = ("> Who has the pearl?\nNot me!\n> And the opal?\n> Anyone?\n\n\nNo idea.\n\n"
            "Cheers, Ada\n\nSent from my iPhone")
    post = board.post(moonstone, mail, player=ada_of(moonstone), channel="email")
    assert post.body == "Not me!\n\nNo idea."


@pytest.mark.parametrize("body", ["", "   \n\t\n", "> only a quote\n"])
def test_an_empty_post_is_refused(moonstone, body):
    with pytest.raises(Invalid, match="the post is empty"):
        board.post(moonstone, body, player=ada_of(moonstone), channel="email")
    assert db.session.query(BoardPost).count() == 0


def test_a_post_of_a_megabyte_is_refused_and_says_how_long_it_was(moonstone):
    with pytest.raises(Invalid) as refused:
        board.post(moonstone, "x" * 1_048_576, player=ada_of(moonstone), channel="api")
    assert refused.value.message == ("a post may be at most 2,000 characters long; "
                                     "this one has 1,048,576")
    assert "1.048.576" in refused.value.text("de") and "2.000" in refused.value.text("de")
    assert board.post(moonstone, "y" * 2000, player=ada_of(moonstone), channel="api").id


def test_the_flood_limit_refuses_the_eleventh_post_in_an_hour_with_the_time_to_wait(moonstone):
    ada, now = ada_of(moonstone), utcnow()
    for i in range(10):
        board.post(moonstone, f"post {i}", player=ada, channel="web",
                   now=now - timedelta(minutes=50) + timedelta(minutes=i))
    with pytest.raises(board.TooManyPosts) as refused:
        board.post(moonstone, "one too many", player=ada, channel="web", now=now)
    assert refused.value.code == "rate_limited"
    assert "posted 10 times on the board in the last hour" in refused.value.message
    assert "nothing was posted" in refused.value.message and "again at" in refused.value.message
    assert db.session.query(BoardPost).count() == 10  # nothing dropped, nothing half-stored
    later = board.post(moonstone, "back again", player=ada, channel="web",
                       now=now + timedelta(minutes=11))
    assert later.body == "back again"
    ben = games.find_player(moonstone, "Ben")  # the limit is Ada's, not the board's
    assert board.post(moonstone, "hi", player=ben, channel="web", now=now).id


def test_an_ended_game_refuses_a_post_and_setup_allows_one(moonstone, make_game):
    moonstone.state = "finished"
    db.session.commit()
    with pytest.raises(WrongState, match="has ended; its board is closed"):
        board.post(moonstone, "late", player=ada_of(moonstone), channel="web")
    waiting = make_game("Waiting", start=False)
    assert board.post(waiting, "who else is in?", player=ada_of(waiting), channel="web").id


def test_a_practice_game_has_no_board(app):
    game = practice.create_practice("solo@example.org", name="Solo", bots=2, level="easy")
    with pytest.raises(NotFound, match="there is no board"):
        board.post(game, "hi", player=practice.human_of(game), channel="web")
    with pytest.raises(NotFound):
        board.page(game)


def test_a_withdrawn_player_and_another_games_player_are_refused(moonstone, make_game):
    other = make_game("Other", players={"Zed": "zed@example.org"})
    with pytest.raises(NotFound):
        board.post(moonstone, "hi", player=games.find_player(other, "Zed"), channel="web")
    ben = games.find_player(moonstone, "Ben")
    ben.withdrawn_at, ben.active = utcnow(), False
    db.session.commit()
    with pytest.raises(access.Forbidden, match="no longer play"):
        board.post(moonstone, "still here", player=ben, channel="web")


def test_delete_of_someone_elses_post_is_refused_and_ones_own_keeps_the_row(moonstone):
    post = board.post(moonstone, "mine", player=ada_of(moonstone), channel="web")
    with pytest.raises(access.Forbidden, match="only your own"):
        board.delete(post, player=games.find_player(moonstone, "Ben"))
    assert post.body == "mine" and post.deleted_at is None
    board.delete(post, player=ada_of(moonstone))
    assert post.body == "" and post.deleted_at is not None
    assert db.session.get(BoardPost, post.id) is not None


def test_hide_keeps_the_text_and_is_audited(moonstone):
    post = board.post(moonstone, "rude", player=ada_of(moonstone), channel="web")
    board.hide(post, actor="gm@example.org")
    assert post.body == "rude" and post.hidden_by == "gm@example.org"
    entry = db.session.query(AuditEntry).filter_by(action="hide_board_post").one()
    assert entry.actor == "gm@example.org" and f'"post": {post.id}' in entry.detail


def test_pages_are_newest_first_with_the_announcements_pinned_on_top(moonstone):
    ada, now = ada_of(moonstone), utcnow()
    ben = games.find_player(moonstone, "Ben")
    note = board.announce(moonstone, "Round 3 is extended", actor="gm@example.org",
                          channel="cli", now=now - timedelta(days=2))
    posts = [board.post(moonstone, f"p{i}", player=(ada, ben)[i % 2], channel="web",
                        now=now - timedelta(days=1) + timedelta(minutes=i)) for i in range(15)]
    first = board.page(moonstone, size=10)
    assert first[0] is note and note.pinned and note.player_id is None
    assert [p.body for p in first[1:]] == [f"p{i}" for i in range(14, 4, -1)]
    second = board.page(moonstone, before_id=first[-1].id, size=10)
    assert [p.body for p in second] == [f"p{i}" for i in range(4, -1, -1)]
    assert not board.has_older(moonstone, second[-1].id) and board.has_older(moonstone,
                                                                            first[-1].id)
    assert posts[0].id < posts[-1].id
    audit = db.session.query(AuditEntry).filter_by(action="announce").one()
    assert audit.actor == "gm@example.org"
