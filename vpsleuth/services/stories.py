"""The game told afterwards, computed once by a job and stored (issue 18, 3).

The story costs the engine seconds (services/story.py), so no request and no
round's transaction computes it. Whoever wants a story asks for it
(``request``): a ``GameStory`` row for the game and its record, inserted once
however many ask at the same time. The ``tell-stories`` job (vpsleuth/jobs/)
claims queued rows one at a time with a conditional UPDATE, computes the story
with no transaction open, and stores it; pages, the API and the final report
mail read it from there (``ready``), in every process alike.

The transaction that ends a game asks for its story; when the final report
mail tells it (STORY_IN_FINAL_REPORT, on by default), that mail is queued in
the transaction that stores the story, so it waits seconds, never goes out
without it, and is never lost: a story that fails three times is given up and
the report goes with a link instead.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from ..models import Game, GameStory, utcnow
from . import events, story
from .reports import resolved_rounds

log = logging.getLogger(__name__)

# A claim older than this is taken over: the worker that made it stopped.
STALE = timedelta(minutes=10)
# Tries before a story is given up (state ``failed``).
ATTEMPTS = 3


def after_round(game: Game) -> int:
    """The record a story of ``game`` tells now: its resolved rounds."""
    return len(resolved_rounds(game))


def find(game: Game) -> GameStory | None:
    """The row for the game's record as it stands, whatever its state; None if never asked."""
    return db.session.scalar(select(GameStory).where(
        GameStory.game_id == game.id, GameStory.after_round == after_round(game)))


def ready(game: Game) -> dict | None:
    """The stored story of the game's record as it stands, or None while it is not told."""
    row = find(game)
    if row is None or row.state != "ready" or row.data is None:
        return None
    return json.loads(row.data)


def request(game: Game, *, final_report: bool = False, now: datetime | None = None) -> None:
    """Ask for the story of the game's record (added to the session; the caller commits).

    Idempotent and safe at the same time from any number of requests and
    processes: one row per game and record (INSERT ... ON CONFLICT DO NOTHING).
    """
    values = dict(game_id=game.id, after_round=after_round(game), state="queued",
                  final_report=final_report, attempts=0, error="",
                  requested_at=now or utcnow())
    dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
    db.session.execute(dialect.insert(GameStory).values(**values).on_conflict_do_nothing(
        index_elements=["game_id", "after_round"]))


def wanted(game: Game, now: datetime | None = None) -> GameStory:
    """The row for the game's record, asked for (and committed) if nobody had yet."""
    row = find(game)
    if row is None:
        request(game, now=now)
        db.session.commit()
        row = find(game)
    return row


def current(game: Game, now: datetime | None = None) -> tuple[str, dict | None]:
    """(state, story) of the game's record as it stands, asking for it if nobody had.

    ``ready`` with the stored story, else ``queued``, ``computing`` or ``failed``
    and None: the caller shows that it is being told (or could not be).
    """
    row = wanted(game, now)
    if row.state == "ready" and row.data is not None:
        return "ready", json.loads(row.data)
    return row.state, None


def current_with_places(game: Game, now: datetime | None = None) -> tuple[str, dict | None]:
    """As ``current``; a story stored before it kept each round's possible places (the
    replay reads them) is told again, once, by the job (never a final report again)."""
    state, told = current(game, now)
    if told is not None and told["rounds"] and "possible" not in told["rounds"][0]:
        row = find(game)
        db.session.execute(update(GameStory).where(
            GameStory.id == row.id, GameStory.state == "ready")
            .values(state="queued", attempts=0, final_report=False, requested_at=now or utcnow())
            .execution_options(synchronize_session=False))
        db.session.commit()
        return "queued", None
    return state, told


def tell_queued(now: datetime | None = None, limit: int = 10) -> list[int]:
    """The job: tell up to ``limit`` queued stories, one at a time; returns the game ids."""
    now = now or utcnow()
    ids = db.session.scalars(select(GameStory.id).where(or_(
        GameStory.state == "queued",
        (GameStory.state == "computing") & (GameStory.started_at < now - STALE)))
        # A final report waits for its story: those first, then pages, oldest first.
        .order_by(GameStory.final_report.desc(), GameStory.id).limit(limit)).all()
    db.session.rollback()  # no transaction stays open while the engine works
    told = []
    for story_id in ids:
        game_id = _tell(story_id, now)
        if game_id is not None:
            told.append(game_id)
    return told


def _claim(story_id: int, now: datetime) -> int | None:
    """Claim one row (queued, or computing past STALE); the attempt number, or None."""
    row = db.session.get(GameStory, story_id)
    if row is None:
        return None
    attempt = row.attempts + 1
    claimed = db.session.execute(
        update(GameStory).where(GameStory.id == story_id, GameStory.attempts == row.attempts,
                                or_(GameStory.state == "queued",
                                    (GameStory.state == "computing")
                                    & (GameStory.started_at < now - STALE)))
        .values(state="computing", started_at=now, attempts=attempt)
        .execution_options(synchronize_session=False))
    db.session.commit()
    return attempt if claimed.rowcount == 1 else None


def _tell(story_id: int, now: datetime) -> int | None:
    attempt = _claim(story_id, now)
    if attempt is None:
        return None  # another worker has it
    row = db.session.get(GameStory, story_id)
    game = db.session.get(Game, row.game_id)
    started = time.perf_counter()
    try:
        data = json.dumps(story.tell(game, with_tips=True, after_round=row.after_round))
    except Exception as exc:  # never lose the final report over a story
        db.session.rollback()
        log.exception("the story of game %d (after round %d) failed", row.game_id,
                      row.after_round)
        return _failed(story_id, attempt, exc)
    db.session.rollback()  # the engine's seconds ran with nothing locked; now write
    seconds = time.perf_counter() - started
    stored = db.session.execute(
        update(GameStory).where(GameStory.id == story_id, GameStory.state == "computing",
                                GameStory.attempts == attempt)
        .values(state="ready", data=data, computed_at=utcnow(), seconds=round(seconds, 3),
                error="").execution_options(synchronize_session=False))
    if stored.rowcount != 1:  # taken over as stale meanwhile: the other worker stores it
        db.session.rollback()
        return None
    row = db.session.get(GameStory, story_id)
    db.session.refresh(row)
    _settled(row)
    db.session.commit()
    log.info("told the story of game %d after round %d in %.1f s", row.game_id,
             row.after_round, seconds)
    return row.game_id


def _failed(story_id: int, attempt: int, exc: Exception) -> None:
    """Count a failed try; past ATTEMPTS the story is given up and the final report goes."""
    state = "failed" if attempt >= ATTEMPTS else "queued"
    done = db.session.execute(
        update(GameStory).where(GameStory.id == story_id, GameStory.attempts == attempt)
        .values(state=state, error=f"{type(exc).__name__}: {exc}"[:2000])
        .execution_options(synchronize_session=False))
    if done.rowcount == 1 and state == "failed":
        row = db.session.get(GameStory, story_id)
        db.session.refresh(row)
        _settled(row)
    db.session.commit()
    return None


def _settled(row: GameStory) -> None:
    """A story is told or given up: announce it (a final report waiting for it goes with
    it: mail/listeners.py), drop older ones."""
    game = db.session.get(Game, row.game_id)
    db.session.flush()  # a listener (the final report's template) reads the stored story
    last = max(resolved_rounds(game), key=lambda r: r.number, default=None)
    events.story_told.send(game, story=row, round_=last)
    db.session.execute(delete(GameStory).where(
        GameStory.game_id == row.game_id, GameStory.after_round < row.after_round,
        GameStory.state.in_(("ready", "failed"))))


def release_overdue(now: datetime | None = None) -> list[int]:
    """Final reports that waited STORY_REPORT_WAIT_MINUTES for a story not told yet go
    without it (announced: ``story_overdue``); returns the game ids.

    Run by its own job, beside tell-stories, which may be busy for minutes with one
    story. The conditional UPDATE turns the row's ``final_report`` off unless the
    story was stored meanwhile, so the report goes once, told or released.
    """
    now = now or utcnow()
    wait = timedelta(minutes=float(current_app.config.get("STORY_REPORT_WAIT_MINUTES", 5)))
    overdue = db.session.scalars(select(GameStory.id).where(
        GameStory.final_report, GameStory.state.in_(("queued", "computing")),
        GameStory.requested_at < now - wait).order_by(GameStory.id)).all()
    released = []
    for story_id in overdue:
        done = db.session.execute(
            update(GameStory).where(GameStory.id == story_id, GameStory.final_report,
                                    GameStory.state.in_(("queued", "computing")))
            .values(final_report=False).execution_options(synchronize_session=False))
        if done.rowcount != 1:
            db.session.rollback()
            continue
        row = db.session.get(GameStory, story_id)
        game = db.session.get(Game, row.game_id)
        last = max(resolved_rounds(game), key=lambda r: r.number, default=None)
        if last is not None:
            events.story_overdue.send(game, round_=last)
        db.session.commit()
        log.info("the final report of game %d went without its story, not told after %s",
                 row.game_id, wait)
        released.append(row.game_id)
    return released
