"""The game told afterwards, computed once by a job and stored (services/stories.py)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .types import UTCDateTime, utcnow


class GameStory(db.Model):
    """What the public record of ``game`` proved after ``after_round`` resolved rounds.

    One row per game and record, so the same story is never computed twice at
    once: whoever wants it inserts the row (``queued``), and one job claims it
    with a conditional UPDATE (``computing``) and stores the result (``ready``).
    A claim older than the stale limit is taken over (a worker that died), and a
    story that failed three times is ``failed``: pages then say so, and the final
    report goes without it. ``data`` is the JSON of ``story.tell(game,
    with_tips=True)``: the tips' part is read only by those the story is for
    (services/story.may_read).

    ``final_report``: the final report mail waits for this story and is queued in
    the transaction that stores it (or that gives up on it).
    """

    __tablename__ = "game_story"
    __table_args__ = (UniqueConstraint("game_id", "after_round"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    after_round: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(10), default="queued", index=True)
    final_report: Mapped[bool] = mapped_column(default=False)
    data: Mapped[str | None] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str] = mapped_column(Text, default="")
    requested_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    computed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    seconds: Mapped[float | None] = mapped_column(db.Float)  # the engine's time, for the GM
