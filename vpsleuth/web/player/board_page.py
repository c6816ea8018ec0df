"""The game board on the web: read it (newest first, paged), post, delete one's own post;
the GM posts, announces and hides (services/board.py holds every rule).

Plain text only: the template prints each body escaped, keeps its line breaks with
CSS and never makes a link of it. A practice game has no board (404).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, flash, redirect, render_template, request, url_for

from ...extensions import db
from ...i18n import N_, translate
from ...i18n.dates import moment_text, number_text
from ...models import BoardPost, Game, Player
from ...services import board
from ...services.access import is_gm_of
from ...services.errors import NotFound, ServiceError
from ..errors import STATUS
from ..inputs import whole_number
from ..session import current_language, current_viewer, login_required
from . import bp
from .common import member_game, zone_of


@dataclass(frozen=True)
class ShownPost:
    """A post as the page shows it; ``body`` is None when hidden (to players) or deleted."""

    id: int
    author: str
    iso: str
    when: str
    body: str | None
    hidden: bool
    deleted: bool
    pinned: bool
    by_gm: bool
    mine: bool


def shown(post: BoardPost, viewer: Player | None, *, gm: bool, zone: str,
          lang: str) -> ShownPost:
    """What a viewer sees of a post: the GM still reads a hidden text, nobody a deleted one."""
    hidden, deleted = post.hidden_at is not None, post.deleted_at is not None
    body = None if deleted or (hidden and not gm) else post.body
    author = board.author_of(post, lang)
    if post.player_id is None:  # "the game master" heads the post: "The game master"
        author = author[:1].upper() + author[1:]
    return ShownPost(post.id, author,
                     post.created_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                     moment_text(post.created_at, zone, lang), body, hidden, deleted,
                     post.pinned, post.player_id is None,
                     viewer is not None and post.player_id == viewer.id)


def _board_game(game_id: int) -> tuple[Game, Player | None, bool]:
    game, player = member_game(game_id)
    if game.practice:
        abort(404)
    return game, player, is_gm_of(current_viewer(), game)


def _render(game: Game, player: Player | None, gm: bool, *, status: int = 200,
            error: str | None = None, text: str = "", announce: bool = False):
    lang = current_language()
    before = whole_number(request.args, "before") if request.method == "GET" else None
    posts = board.page(game, before_id=before)
    zone = zone_of(game, player)
    last = posts[-1].id if posts else None
    older = last is not None and board.has_older(game, last)
    may_post = game.state != "finished" and (gm or (player is not None and player.active
                                                     and player.withdrawn_at is None))
    return render_template(
        "web/player/board.html", game=game, player=player, is_gm=gm, error=error, text=text,
        announce=announce, may_post=may_post, max_length=board.MAX_LENGTH,
        max_length_text=number_text(board.MAX_LENGTH, lang),
        posts=[shown(p, player, gm=gm, zone=zone, lang=lang) for p in posts],
        first_page=before is None, older=url_for("player.board_page", game_id=game.id,
                                                 before=last) if older else None,
        ), status, {"Cache-Control": "no-store"}


@bp.get("/games/<int:game_id>/board")
@login_required
def board_page(game_id: int):
    """The board: announcements pinned on top, then the posts, newest first, 20 a page."""
    game, player, gm = _board_game(game_id)
    return _render(game, player, gm)


@bp.post("/games/<int:game_id>/board")
@login_required
def board_post(game_id: int):
    """A post by a player, or by the GM (``announce``: pinned, mailed to every player)."""
    game, player, gm = _board_game(game_id)
    text = request.form.get("body", "")
    announce = gm and request.form.get("announce") == "1"
    try:
        if player is not None and not announce:
            board.post(game, text, player=player, channel="web")
        elif gm:
            if announce:
                board.announce(game, text, actor=current_viewer().email, channel="web")
            else:
                board.post(game, text, channel="web", actor=current_viewer().email)
        else:
            abort(404)
    except ServiceError as exc:
        db.session.rollback()
        return _render(game, player, gm, status=STATUS.get(exc.code, 400),
                       error=exc.sentence(current_language()), text=text, announce=announce)
    _say(N_("Your announcement is on the board and goes to every player by mail.")
         if announce else N_("Your post is on the board."))
    if request.form.get("back") == "console" and gm:
        return redirect(f"/gm/games/{game.id}")
    return redirect(url_for("player.board_page", game_id=game.id))


def _say(message: str) -> None:
    flash(translate(current_language(), message), "ok")


def _post_of(game: Game, post_id: int) -> BoardPost:
    try:
        return board.find_post(game, post_id)
    except NotFound:
        abort(404)


@bp.post("/games/<int:game_id>/board/<int:post_id>/delete")
@login_required
def board_delete(game_id: int, post_id: int):
    """The author deletes their own post; anyone else's is refused (403)."""
    game, player, _ = _board_game(game_id)
    post = _post_of(game, post_id)
    if player is None:
        abort(403)
    try:
        board.delete(post, player=player)
    except ServiceError as exc:
        db.session.rollback()
        return _render(game, player, False, status=STATUS.get(exc.code, 400),
                       error=exc.sentence(current_language()))
    _say(N_("Your post is deleted."))
    return redirect(url_for("player.board_page", game_id=game.id))


@bp.post("/games/<int:game_id>/board/<int:post_id>/hide")
@login_required
def board_hide(game_id: int, post_id: int):
    """The GM hides a post (kept, in the audit log); a player may not (403)."""
    game, _, gm = _board_game(game_id)
    post = _post_of(game, post_id)
    if not gm:
        abort(403)
    board.hide(post, actor=current_viewer().email)
    _say(N_("The post is hidden; the players see “hidden by the game master” in its place."))
    return redirect(url_for("player.board_page", game_id=game.id) + f"#post-{post.id}")

