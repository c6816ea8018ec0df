"""The board's daily digest by mail (issue 20): the posts a player has not been told of.

A player whose board mail setting is "digest" gets at most one mail a day, in the
morning of their own time zone (from ``BOARD_DIGEST_HOUR``, default 8 o'clock,
until the day ends; a scheduler that was down catches up later that day), with
the posts since ``Player.board_told_post_id``: not their own, not hidden or
deleted, not the GM's announcements (those went to everybody at once). No new
post, no mail.

Any number of schedulers may run this at once: the digest is queued in the same
transaction as a conditional UPDATE of ``board_told_post_id`` from the value this
run read, so only one of them commits it (as ReminderSent decides a reminder).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from flask import current_app
from sqlalchemy import func, select, update

from ..extensions import db
from ..models import BoardPost, OutboxMessage, Player, utcnow
from . import events

log = logging.getLogger(__name__)
DIGEST_KIND = "board_digest"  # the outbox kind of the digest mail
MOST_POSTS = 50  # a digest lists at most this many (the newest); the rest is on the web
_ONCE_A_DAY = timedelta(hours=20)  # since the last digest, so the hour may drift a little


def untold(player: Player) -> list[BoardPost]:
    """The posts a digest would tell ``player`` of, oldest first."""
    return list(db.session.scalars(_untold_query(player.board_told_post_id or 0)
                                   .where(BoardPost.game_id == player.game_id,
                                          _not_by(player.id))
                                   .order_by(BoardPost.id)))


def _untold_query(after: object):
    return select(BoardPost).where(BoardPost.id > after, BoardPost.pinned.is_(False),
                                   BoardPost.hidden_at.is_(None),
                                   BoardPost.deleted_at.is_(None))


def _not_by(player_id: object):
    return BoardPost.player_id.is_(None) | (BoardPost.player_id != player_id)


def _morning(player: Player, now: datetime) -> bool:
    hour = int(current_app.config.get("BOARD_DIGEST_HOUR", 8))
    zone = ZoneInfo(player.zone)
    return now.astimezone(zone).hour >= hour


def _told_lately(player: Player, now: datetime) -> bool:
    return bool(db.session.scalar(select(func.count(OutboxMessage.id)).where(
        OutboxMessage.kind == DIGEST_KIND, OutboxMessage.player_id == player.id,
        OutboxMessage.created_at > now - _ONCE_A_DAY)))


def candidates() -> list[int]:
    """The ids of digest readers with a post they have not been told of."""
    query = (select(Player.id).join(BoardPost, BoardPost.game_id == Player.game_id)
             .where(Player.board_mail == "digest", Player.active.is_(True),
                    Player.bot_level.is_(None), Player.left_at.is_(None),
                    Player.withdrawn_at.is_(None),
                    BoardPost.id > func.coalesce(Player.board_told_post_id, 0),
                    BoardPost.pinned.is_(False), BoardPost.hidden_at.is_(None),
                    BoardPost.deleted_at.is_(None), _not_by(Player.id))
             .distinct().order_by(Player.id))
    return list(db.session.scalars(query))


def send_digests(now: datetime | None = None) -> list[int]:
    """Queue every digest due at ``now``; the ids of the players this call told."""
    now = now or utcnow()
    told = []
    for player_id in candidates():
        player = db.session.get(Player, player_id)
        if player is None or player.game.practice or not _morning(player, now):
            continue
        if _told_lately(player, now):
            continue
        if _digest(player, now):
            told.append(player_id)
    return told


def _digest(player: Player, now: datetime) -> bool:
    """Move the player's pointer from what was read to the newest post and queue the
    digest with it, in one transaction; False if another run was first."""
    before = player.board_told_post_id
    posts = untold(player)
    if not posts:
        return False
    newest = posts[-1].id
    same = (Player.board_told_post_id.is_(None) if before is None
            else Player.board_told_post_id == before)
    done = db.session.execute(update(Player).where(Player.id == player.id, same)
                              .values(board_told_post_id=newest)
                              .execution_options(synchronize_session=False))
    if done.rowcount != 1:
        db.session.rollback()
        return False
    events.board_digest_due.send(player, posts=posts[-MOST_POSTS:], more=max(
        0, len(posts) - MOST_POSTS), now=now)
    db.session.commit()
    log.info("board digest of %d posts to player %d of game %d", len(posts), player.id,
             player.game_id)
    return True
