"""A game's board: short public messages by its players and its GM (issue 20, point 4/5).

Every entrance (web, API, mail, CLI) posts through here, so every channel gets
the same limits and the same refusals (services/errors.py; the message names
what is wrong: how long the post was, when the next post may go):

* plain text only, at most ``MAX_LENGTH`` characters after stripping (the pages
  escape it and never make a link of it); line breaks are kept, other control
  characters removed;
* a mailed post (``channel="email"``) loses the quoted original, the "-- "
  signature and a client's footer (orders/reply.py, as a turn by mail does); a
  greeting the player wrote ("Cheers, Ada") stays: a post is prose, and the
  turn's sign-off rule (orders/signoff.py) tells turn lines from the rest;
* in a game in setup, running or paused; not once it has finished, never in a
  practice game; not by a withdrawn player or one whose person has left;
* at most ``BOARD_POSTS_PER_HOUR`` posts per player in the last hour (config,
  default 10; the GM has no limit); the next one is refused with the time it may
  go, nothing is dropped silently.

``post`` and ``announce`` send ``events.board_posted`` in the transaction and
commit, as the other services do (services/turns.py, services/gm.py): the mail
side (mail/listeners.py) queues its mails with the post or not at all.

The GM hides a post (``hide``: kept, audited, shown as "hidden by the GM"); an
author deletes their own (``delete``: the text is gone, the row stays so the
pages do not shift). Who may call what is the entrance's check (services/access.py:
``require_gm`` before ``hide``/``announce``, ``require_player`` before ``post``/
``delete``); the service checks that the post and the player belong together.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import func, select

from ..extensions import db
from ..i18n import N_, translate
from ..i18n.dates import number_text
from ..models import BoardPost, Game, Player, SeatChange, utcnow
from ..orders.reply import strip_reply
from ..orders.signoff import strip_post_signoff
from . import events
from .access import Forbidden
from .errors import Invalid, NotFound, WrongState, deadline_in
from .games import audit
from .names import former_name

MAX_LENGTH = 2000
PAGE_SIZE = 20
PINNED_ON_TOP = 3  # the newest announcements head the first page; older ones sit in the stream
CHANNELS = ("web", "api", "email", "cli")
# Control characters but line break and tab (a NUL would not even store in PostgreSQL).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_GAPS = re.compile(r"\n{3,}")



class TooManyPosts(Invalid):
    """The player's hourly limit of posts is reached (HTTP 429); nothing was stored."""

    code = "rate_limited"


NOT_ON_BOARD = N_("there is no board in '{game}'")
GM_NAME = N_("the game master")
NOT_YOURS = N_("you may delete only your own posts")


def check_board(game: Game) -> None:
    """Refuse a practice game's board (it has none): NotFound, so it is a 404."""
    if game.practice:
        raise NotFound(NOT_ON_BOARD, game=game.name)


def clean_body(body: str, channel: str, names: tuple[str, ...] = ()) -> str:
    """The text as it is stored: line ends unified, control characters out, trimmed; a
    mailed post without its quoted original, its signature and its closing greeting
    (``names``: the writer's, for "Cheers, Ben")."""
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    if channel == "email":
        text = strip_post_signoff(strip_reply(text), names)
    text = _CONTROL.sub("", text)
    text = "\n".join(line.rstrip() for line in text.strip().split("\n"))
    return _GAPS.sub("\n\n", text)  # a quote cut from between the lines leaves one gap


def names_of(player: Player | None) -> tuple[str, ...]:
    """The names a player may sign a mail with: the seat's and the one the archive shows."""
    return () if player is None else tuple(n for n in (player.name, player.display_name) if n)


def _number(n: int):
    """A count written for each reader's language (2,000 / 2.000)."""
    return lambda lang: number_text(n, lang)


def _check_game(game: Game) -> None:
    check_board(game)
    if game.state == "finished":
        raise WrongState(N_("'{game}' has ended; its board is closed"), game=game.name)


def _check_player(game: Game, player: Player) -> None:
    if player.game_id != game.id:
        raise NotFound(N_("no such post in '{game}'"), game=game.name)
    if player.left_at is not None or player.withdrawn_at is not None or not player.active:
        raise Forbidden(N_("you no longer play in '{game}', so you cannot post on its board"),
                        game=game.name)


def _check_flood(game: Game, player: Player, now: datetime) -> None:
    limit = int(current_app.config.get("BOARD_POSTS_PER_HOUR", 10))
    since = now - timedelta(hours=1)
    times = list(db.session.scalars(
        select(BoardPost.created_at).where(BoardPost.player_id == player.id,
                                           BoardPost.created_at > since)
        .order_by(BoardPost.created_at.desc()).limit(limit)))
    if len(times) >= limit:
        raise TooManyPosts(N_("you have posted {limit} times on the board in the last hour, the "
                         "most allowed; nothing was posted. You may post again at {at}"),
                      limit=limit, at=deadline_in(times[-1] + timedelta(hours=1), player.zone))


def post(game: Game, body: str, *, player: Player | None = None, channel: str,
         now: datetime | None = None, pinned: bool = False,
         actor: str | None = None) -> BoardPost:
    """Post ``body`` on the game's board and commit; the post, flushed and committed.

    ``player`` None: the GM posts (``actor``: the GM's address, required). Raises
    NotFound (practice game, a player of another game), WrongState (the game has
    ended), Forbidden (a withdrawn player, one who left), Invalid (empty after
    stripping, longer than MAX_LENGTH, the hourly limit reached).
    """
    if channel not in CHANNELS:
        raise Invalid(f"unknown channel {channel!r}")
    now = now or utcnow()
    _check_game(game)
    if player is None:
        if not actor:
            raise Invalid("a GM's post needs the actor")
    else:
        _check_player(game, player)
    text = clean_body(body, channel, names_of(player))
    if not text:
        raise Invalid(N_("the post is empty; write something to post"))
    if len(text) > MAX_LENGTH:
        raise Invalid(N_("a post may be at most {limit} characters long; this one has {length}"),
                      limit=_number(MAX_LENGTH), length=_number(len(text)))
    if player is not None:
        _check_flood(game, player, now)
    row = BoardPost(game_id=game.id, player_id=player.id if player else None,
                    author=player.name if player else "", body=text, channel=channel,
                    pinned=pinned, created_at=now)
    db.session.add(row)
    db.session.flush()
    if pinned:
        audit(game, actor or "", "announce", post=row.id)
    events.board_posted.send(game, post=row, announcement=pinned)
    db.session.commit()
    return row


def announce(game: Game, body: str, *, actor: str, channel: str,
             now: datetime | None = None) -> BoardPost:
    """A GM announcement: a pinned post of the GM, mailed to every player whatever
    their board mail setting (``board_posted`` with ``announcement=True``)."""
    return post(game, body, channel=channel, now=now, pinned=True, actor=actor)


def find_post(game: Game, post_id: int) -> BoardPost:
    """A post of this game's board, or NotFound (a post of another game is not found)."""
    check_board(game)
    row = db.session.get(BoardPost, post_id)
    if row is None or row.game_id != game.id:
        raise NotFound(N_("no such post in '{game}'"), game=game.name)
    return row


def hide(post: BoardPost, *, actor: str, now: datetime | None = None) -> BoardPost:
    """The GM hides a post: kept as written, audited, shown as "hidden by the GM".

    The caller has checked that ``actor`` is the game's GM (access.require_gm).
    Hiding one already hidden or deleted changes nothing.
    """
    if post.hidden_at is None and post.deleted_at is None:
        post.hidden_at, post.hidden_by = now or utcnow(), actor
        audit(post.game, actor, "hide_board_post", post=post.id,
              author=post.author or "GM")
    db.session.commit()
    return post


def delete(post: BoardPost, *, player: Player, now: datetime | None = None) -> BoardPost:
    """The author deletes their own post: the text goes, the row stays ("deleted")."""
    # A seat's posts from before it changed hands are the earlier holder's (_own_posts).
    if post.player_id != player.id or post.game_id != player.game_id \
            or post.author != player.name:
        raise Forbidden(NOT_YOURS)
    if post.deleted_at is None:
        post.deleted_at, post.body = now or utcnow(), ""
    db.session.commit()
    return post


def page(game: Game, *, before_id: int | None = None, size: int = PAGE_SIZE) -> list[BoardPost]:
    """One page of the board, newest first; the first page (``before_id`` None) opens
    with the newest announcements (PINNED_ON_TOP of them), pinned above the rest.

    The next page: ``before_id`` = the id of the last post of this one.
    """
    check_board(game)
    size = max(1, min(int(size), 100))
    top = _pinned_top(game)
    query = select(BoardPost).where(BoardPost.game_id == game.id)
    if top:
        query = query.where(BoardPost.id.not_in([p.id for p in top]))
    if before_id is not None:
        query = query.where(BoardPost.id < before_id)
    stream = list(db.session.scalars(query.order_by(BoardPost.id.desc()).limit(size)))
    return (top if before_id is None else []) + stream


def has_older(game: Game, before_id: int) -> bool:
    """Whether a page after the one ending with post ``before_id`` has posts."""
    top = [p.id for p in _pinned_top(game)]
    query = select(func.count()).select_from(BoardPost).where(
        BoardPost.game_id == game.id, BoardPost.id < before_id)
    if top:
        query = query.where(BoardPost.id.not_in(top))
    return bool(db.session.scalar(query))


def _pinned_top(game: Game) -> list[BoardPost]:
    return list(db.session.scalars(
        select(BoardPost).where(BoardPost.game_id == game.id, BoardPost.pinned)
        .order_by(BoardPost.id.desc()).limit(PINNED_ON_TOP)))


def all_posts(game: Game) -> list[BoardPost]:
    """Every post of the game, oldest first (the archive of a finished game)."""
    return list(db.session.scalars(select(BoardPost).where(BoardPost.game_id == game.id)
                                   .order_by(BoardPost.id)))


def author_of(post: BoardPost, lang: str) -> str:
    """Who wrote a post, as the game's own pages show it: the name it was posted under,
    "the game master", or "former player N" once the person has left."""
    if post.player_id is None:
        return translate(lang, GM_NAME)
    if post.player is not None and post.player.left_at is not None and not post.author:
        return former_name(post.player.former_number, lang)
    return post.author


def forget(email: str, *, seats: list[Player], whole: bool = True) -> None:
    """events.person_leaving: the person's posts lose their text and name (each stays,
    "deleted", under the seat's "former player N"); a GM's address leaves hide marks."""
    _blank([p for seat in seats for p in _own_posts(seat)])
    for row in db.session.scalars(select(BoardPost).where(
            func.lower(BoardPost.hidden_by) == email.lower())):
        row.hidden_by = ""


def forget_handed_on(email: str) -> None:
    """The posts a leaver wrote in seats they handed on lose text and name too. Called by
    services/seats.forget before it takes the name out of the seat changes, which is how
    such posts are found (the signal's receivers run in no fixed order)."""
    _blank(_posts_of_seats_left(email))


def _blank(rows: list[BoardPost]) -> None:
    now = utcnow()
    for row in rows:
        row.body, row.author = "", ""
        row.deleted_at = row.deleted_at or now


def export(email: str, *, seats: list[Player], whole: bool) -> dict[str, list[dict]]:
    """events.personal_data_asked: the posts of the seats the export covers, as written
    (a seat's posts under an earlier holder's name are that holder's, not theirs)."""
    rows = [row for seat in seats for row in _own_posts(seat)]
    if whole:
        rows += _posts_of_seats_left(email)
    return {"board_post": [{"id": p.id, "game_id": p.game_id, "player_id": p.player_id,
                            "author": p.author, "body": p.body, "channel": p.channel,
                            "created_at": p.created_at.isoformat(),
                            "hidden": p.hidden_at is not None,
                            "deleted_at": p.deleted_at.isoformat() if p.deleted_at else None}
                           for p in rows]}


def _own_posts(seat: Player) -> list[BoardPost]:
    return list(db.session.scalars(select(BoardPost).where(
        BoardPost.player_id == seat.id, BoardPost.author == seat.name).order_by(BoardPost.id)))


def _posts_of_seats_left(email: str) -> list[BoardPost]:
    """The posts a person wrote in seats they handed on (models.SeatChange): theirs still."""
    changes = db.session.scalars(select(SeatChange).where(
        func.lower(SeatChange.old_email) == email.lower()))
    return [row for change in changes for row in db.session.scalars(
        select(BoardPost).where(BoardPost.player_id == change.player_id,
                                BoardPost.author == change.old_name,
                                BoardPost.created_at <= change.at).order_by(BoardPost.id))]
