"""A game's board by API: read it (paged), post, delete one's own post; the GM posts,
announces and hides. The rules are services/board.py's, as on the web and by mail.

Bodies are plain text in JSON strings, never HTML: a client shows them as text.
A practice game has no board (404).
"""

from __future__ import annotations

from flask import request

from ..i18n import N_
from ..models import BoardPost, Game
from ..services import access, board
from ..services.errors import NotFound
from . import bp, inputs
from .auth import caller, own_player, visible_game
from .errors import BadInput
from .games import GAME_ID
from .serialize import iso

POST_ID = "<int:post_id>"


def board_game(game_id: int) -> tuple[Game, bool]:
    """A game the caller may see that has a board, and whether the caller is its GM."""
    game = visible_game(game_id)
    board.check_board(game)
    who = caller()
    return game, who.player is None and access.is_gm_of(who.viewer, game)


def post_json(post: BoardPost, *, gm: bool, mine_id: int | None) -> dict:
    """A post as the API shows it: ``body`` null when deleted, or hidden (to players)."""
    state = ("deleted" if post.deleted_at is not None
             else "hidden" if post.hidden_at is not None else "shown")
    body = None if state == "deleted" or (state == "hidden" and not gm) else post.body
    return {"id": post.id, "author": board.author_of(post, "en"),
            "by_game_master": post.player_id is None, "pinned": post.pinned,
            "created_at": iso(post.created_at), "state": state, "body": body,
            "mine": mine_id is not None and post.player_id == mine_id}


def _mine(game: Game) -> int | None:
    who = caller()
    player = who.player or access.player_in(who.viewer, game)
    return player.id if player is not None else None


def _query_int(name: str, low: int, high: int) -> int | None:
    raw = request.args.get(name)
    if raw is None:
        return None
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise BadInput(name, N_("must be a whole number from {low} to {high}"), low=low,
                       high=high)
    return int(raw)


@bp.get(f"/games/{GAME_ID}/board")
def get_board(game_id: int):
    """One page of the board, newest first; the first opens with the pinned announcements."""
    game, gm = board_game(game_id)
    before = _query_int("before", 1, inputs.MAX_ID)
    size = _query_int("size", 1, 100) or board.PAGE_SIZE
    posts = board.page(game, before_id=before, size=size)
    last = posts[-1].id if posts else None
    mine = _mine(game)
    return {"game_id": game.id, "posts": [post_json(p, gm=gm, mine_id=mine) for p in posts],
            "next_before": last if last is not None and board.has_older(game, last) else None}


@bp.post(f"/games/{GAME_ID}/board")
def add_post(game_id: int):
    """Post on the board: a player for themselves, the GM as the GM (``announce``: pinned,
    mailed to every player; the GM's alone)."""
    game, gm = board_game(game_id)
    body = inputs.json_object({"body", "announce"}, {"body"})
    text = body["body"]
    if not isinstance(text, str):
        raise BadInput("body", inputs.MUST_BE_STRING)
    announce = inputs.boolean(body.get("announce", False), "announce")
    mine = _mine(game)
    if announce:
        if not gm:
            raise access.Forbidden(access.GM_ONLY, game=game.name)
        post = board.announce(game, text, actor=caller().actor, channel="api")
    elif mine is None and gm:
        post = board.post(game, text, channel="api", actor=caller().actor)
    else:
        post = board.post(game, text, player=own_player(game), channel="api")
    return post_json(post, gm=gm, mine_id=mine), 201


def _post(game: Game, post_id: int) -> BoardPost:
    if not 0 < post_id <= inputs.MAX_ID:
        raise NotFound(N_("no such post in '{game}'"), game=game.name)
    return board.find_post(game, post_id)


@bp.post(f"/games/{GAME_ID}/board/{POST_ID}/delete")
def delete_post(game_id: int, post_id: int):
    """The author deletes their own post (403 for anyone else's): the text goes."""
    game, gm = board_game(game_id)
    post = _post(game, post_id)
    player = own_player(game)
    if post.player_id != player.id:  # before the body is read: as for a stranger's post
        raise access.Forbidden(board.NOT_YOURS)
    inputs.json_object(set())
    return post_json(board.delete(post, player=player), gm=gm, mine_id=player.id)


@bp.post(f"/games/{GAME_ID}/board/{POST_ID}/hide")
def hide_post(game_id: int, post_id: int):
    """The GM hides a post: kept, audited, shown as hidden (403 for players)."""
    game, gm = board_game(game_id)
    if not gm:  # a player token is a player's, even of the GM's own address
        raise access.Forbidden(access.GM_ONLY, game=game.name)
    post = _post(game, post_id)
    inputs.json_object(set())
    return post_json(board.hide(post, actor=caller().actor), gm=True, mine_id=_mine(game))
