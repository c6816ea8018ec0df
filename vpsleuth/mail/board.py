"""The game board by mail (issue 20): each post at once, the daily digest, the answers.

* A post (services/board.post): to every player whose board mail setting is
  "each" (not its author); a GM announcement to every active human player of
  the game at once, whatever their setting. Never to bots, nor in a practice game
  (notify.has_mailbox).
* The daily digest (services/board_digest.py) to the "digest" players.
* The answer to a post sent by mail: "posted", or why not (mail/inbound/board.py).

Every board mail carries the reader's board address as its Reply-To, so a reply
to it posts on the board; the text of a post is printed as text (escaped in HTML).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import update

from ..extensions import db
from ..i18n.dates import deadline_text
from ..models import BoardPost, Game, Player
from ..services.board_digest import DIGEST_KIND
from ..services.links import base_url
from . import outbox, threads
from .keys import board_address
from .notify import has_mailbox


def _readers(game: Game, post: BoardPost, announcement: bool) -> list[Player]:
    return [p for p in game.active_players if has_mailbox(p) and p.left_at is None
            and p.withdrawn_at is None and p.id != post.player_id
            and (announcement or p.board_mail == "each")]


def _when(player: Player, at: datetime) -> str:
    return deadline_text(at, player.zone, player.language)


def post_mails(game: Game, post: BoardPost, announcement: bool) -> None:
    """Queue the mails of a new post (in the post's transaction)."""
    if post.hidden_at is not None or post.deleted_at is not None:
        return
    readers = _readers(game, post, announcement)
    link = base_url()
    for player in readers:
        outbox.queue("board_announcement" if announcement else "board_post", player.email,
                     "board_post", player.language, game=game, player=player, post=post,
                     announcement=announcement, when=_when(player, post.created_at),
                     board_address=board_address(player), base_url=link,
                     reply_to=board_address(player))
    # An "each" reader has been told of this post: a later digest (if they change their
    # setting) starts after it. An announcement moves no digest reader's place on.
    told = [p.id for p in readers if p.board_mail == "each"]
    if told:
        db.session.execute(
            update(Player).where(Player.id.in_(told),
                                 Player.board_told_post_id.is_(None)
                                 | (Player.board_told_post_id < post.id))
            .values(board_told_post_id=post.id).execution_options(synchronize_session=False))


def digest(player: Player, posts: list[BoardPost], more: int) -> None:
    """Queue one player's daily digest (in the transaction that moves their place on)."""
    if not has_mailbox(player) or not posts:
        return
    entries = [(post, _when(player, post.created_at)) for post in posts]
    outbox.queue(DIGEST_KIND, player.email, "board_digest", player.language,
                 game=player.game, player=player, entries=entries, more=more,
                 board_address=board_address(player), reply_to=board_address(player))


def answer(player: Player, *, post: BoardPost | None = None, reason: str = "") -> None:
    """Answer a post sent by mail: on the board (``post``), or not, and why."""
    if not has_mailbox(player):
        return
    outbox.queue("board_answer", player.email, "board_answer", player.language,
                 game=player.game, player=player, post=post, reason=reason,
                 reply=threads.answered(), board_address=board_address(player),
                 reply_to=board_address(player))
