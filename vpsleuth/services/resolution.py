"""Resolving a round: exactly once, in one transaction, results stored for reports."""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import ColumnElement, and_, bindparam, exists, insert, or_, select, update
from sqlalchemy.orm.attributes import set_committed_value

from ..extensions import db
from ..i18n import N_
from ..models import Game, Player, Round, RoundResult, StandingQuestion, StandingTip, utcnow
from ..rules import GEM_BY_CODE, Distribution, Question, Turn, competition_ranks, resolve
from ..rules.schedule import Schedule
from . import claims, events, ratings, stories
from .errors import WrongState
from .games import audit
from .missed_turns import repeat_missed


def is_due(round_: Round, now: datetime) -> bool:
    """Derived from the stored deadline (and early resolution), never from a timer."""
    game = round_.game
    if round_.state != "open" or game.state != "running":
        return False
    if now >= round_.deadline:
        return True
    if not game.early_resolution or not game.active_players:
        return False
    submitted = set(db.session.scalars(select(StandingQuestion.player_id).where(
        StandingQuestion.round_id == round_.id)))
    submitted |= set(db.session.scalars(select(StandingTip.player_id).where(
        StandingTip.round_id == round_.id)))
    return all(p.id in submitted for p in game.active_players)


def may_be_due(now: datetime) -> list[ColumnElement[bool]]:
    """is_due in SQL, for picking the candidates out of every running game's open round:
    the deadline passed; or early resolution on and no active player without a turn.
    Two conditions, for two queries: in one, PostgreSQL hashes every standing turn of
    every round for the second, even where no game resolves early.

    A tick reads only these (is_due decides each again), not every open round of every
    running game: that cost about 1.5 ms a running game every tick.
    """
    sent = or_(exists().where(StandingQuestion.round_id == Round.id,
                              StandingQuestion.player_id == Player.id),
               exists().where(StandingTip.round_id == Round.id,
                              StandingTip.player_id == Player.id))
    active = and_(Player.game_id == Round.game_id, Player.active.is_(True))
    running = and_(Round.state == "open", Game.state == "running")
    return [and_(running, Round.deadline <= now),
            and_(running, Game.early_resolution.is_(True), Round.deadline > now,
                 exists().where(active), ~exists().where(active, ~sent))]


def resolve_round(game: Game, *, now: datetime | None = None, actor: str = "system",
                  number: int | None = None) -> Round | None:
    """Resolve the open round (or round ``number``); None if already resolved (a no-op).

    Entrances that may repeat (a double-clicked button, a retried job) pass
    ``number``, so a repeat is a no-op rather than resolving the next round.

    The round is claimed with a conditional UPDATE (open -> resolving) in the
    same transaction that stores the results, opens the next round or ends the
    game: a second caller, or a crash half-way, can never resolve it twice.
    """
    now = now or utcnow()
    round_ = game.round(number) if number is not None else game.open_round
    if round_ is None or round_.state == "resolved":
        return None
    if game.state == "setup":
        raise WrongState(N_("game '{game}' has not started"), game=game.name)
    claimed = db.session.execute(
        update(Round).where(Round.id == round_.id, Round.state == "open")
        .values(state="resolving").execution_options(synchronize_session=False))
    if claimed.rowcount != 1:
        db.session.rollback()
        return None
    db.session.refresh(round_)
    following = _store_results(game, round_, now)
    audit(game, actor, "resolve_round", round=round_.number)
    db.session.flush()
    told = bool(following is None and current_app.config.get("STORY_IN_FINAL_REPORT"))
    if following is None:  # the game ended: its story is told by a job, once
        stories.request(game, final_report=told, now=now)
        ratings.rate_finished(game, now)  # with the end, or not at all
    # When told, the final report waits for the story (services/stories.py: story_told).
    events.round_resolved.send(game, round_=round_, ended=following is None,
                               report_waits=told)
    if following is not None:
        events.round_opened.send(game, round_=following)
    db.session.commit()
    if following is not None:
        events.after_round_opened.send(game, round_=following, now=now)
    return round_


def round_turns(round_: Round) -> tuple[dict[int, Turn], dict[int, StandingQuestion]]:
    questions = {q.player_id: q for q in db.session.scalars(
        select(StandingQuestion).where(StandingQuestion.round_id == round_.id))}
    tips: dict[int, dict] = {}
    # Columns, not objects: a big game has tens of thousands of tips a round.
    for player_id, gem, location in db.session.execute(select(
            StandingTip.player_id, StandingTip.gem, StandingTip.location)
            .where(StandingTip.round_id == round_.id)):
        tips.setdefault(player_id, {})[GEM_BY_CODE[gem]] = location
    asked: dict[str, Question] = {}
    for q in questions.values():
        if q.question not in asked:
            asked[q.question] = Question.from_codes(q.question)
    players = set(questions) | set(tips)
    turns = {p: Turn(asked[questions[p].question] if p in questions else None,
                     tips.get(p, {})) for p in players}
    return turns, questions


def _previous_totals(game: Game, round_: Round) -> dict[int, int]:
    previous = game.round(round_.number - 1)
    if previous is None:
        return {}
    return dict(db.session.execute(select(RoundResult.player_id, RoundResult.total)
                                   .where(RoundResult.round_id == previous.id)).all())


def _store_results(game: Game, round_: Round, now: datetime) -> Round | None:
    """Store results; end the game or open the next round (returned)."""
    distribution = Distribution.from_canonical(game.secret.distribution)
    repeated = repeat_missed(game, round_)  # the missed-turn rule, before the scoring
    turns, questions = round_turns(round_)
    active = [p.id for p in game.active_players]
    outcome = resolve(round_.number, turns, active, distribution, game.ruleset)
    answers: dict[str, int] = {}  # many players ask the same question
    for q in questions.values():
        if q.question not in answers:
            answers[q.question] = Question.from_codes(q.question).answer(distribution)
        set_committed_value(q, "answer", answers[q.question])
    if questions:  # one executemany UPDATE, not the unit of work diffing every row
        table = StandingQuestion.__table__
        db.session.execute(
            update(table).where(table.c.id == bindparam("question_id"))
            .values(answer=bindparam("new_answer")),
            [{"question_id": q.id, "new_answer": q.answer} for q in questions.values()])
    before = _previous_totals(game, round_)
    totals = {p: before.get(p, 0) + r.points for p, r in outcome.results.items()}
    ranks = competition_ranks(totals)
    if outcome.results:  # one multi-row INSERT rather than an ORM object per player
        db.session.execute(insert(RoundResult.__table__), [dict(
            round_id=round_.id, player_id=p, submitted=r.submitted,
            tips=len(turns[p].tips) if p in turns else 0, correct=r.correct, wrong=r.wrong,
            tip_score=r.tip_score, bonus=r.bonus, points=r.points, total=totals[p],
            rank=ranks[p], repeated=p in repeated) for p, r in outcome.results.items()])
    round_.state, round_.resolved_at = "resolved", now
    if outcome.game_over:
        game.state, game.finished_at = "finished", now
        return None
    schedule = Schedule.from_json(game.schedule)
    deadline = schedule.following(round_.number + 1, now, round_.deadline, game.after_early)
    following = Round(game=game, number=round_.number + 1, opened_at=now, deadline=deadline)
    db.session.add(following)
    return following


def resolve_due(now: datetime | None = None) -> list[Round]:
    """Resolve every round that is due; safe to call from any number of processes.

    Several schedulers divide the due rounds: each round is resolved in a
    transaction of its own that first locks it, and a locked round is skipped.
    """
    now = now or utcnow()
    # Ids, not objects: every commit expires every object the session holds, so
    # holding a thousand rounds through a thousand commits costs a million expiries.
    due = sorted(round_id for condition in may_be_due(now) for round_id in
                 db.session.scalars(select(Round.id).join(Game).where(condition)))
    resolved: list[int] = []
    for round_id in due:
        round_ = db.session.get(Round, round_id)
        if round_ is None or not is_due(round_, now):
            continue
        # A round another scheduler is resolving is locked: passed over, not waited
        # for (services/claims.py); the lock, ours now, lasts until resolve_round commits.
        if not claims.lock_if_free(Round, round_id, Round.state == "open"):
            db.session.rollback()
            continue
        done = resolve_round(round_.game, now=now, number=round_.number)
        if done is not None:
            resolved.append(done.id)
    found: dict[int, Round] = {}
    for start in range(0, len(resolved), 500):
        found.update((r.id, r) for r in db.session.scalars(
            select(Round).where(Round.id.in_(resolved[start:start + 500]))))
    return [found[round_id] for round_id in resolved]


def outage_grace() -> timedelta:
    """How long the scheduler may be silent before a passed deadline counts as missed."""
    return timedelta(minutes=float(current_app.config.get("OUTAGE_GRACE_MINUTES", 10)))


def apply_outage_rule(now: datetime, last_heartbeat: datetime | None, *,
                      grace: timedelta | None = None, actor: str = "system") -> list[Round]:
    """Move on the deadlines that passed while the service was down; returns those rounds.

    A deadline counts as missed when the last heartbeat is before it and older
    than ``grace`` (OUTAGE_GRACE_MINUTES): players may not have been able to
    send their turns. Such a round is not resolved blind: its deadline moves on
    by the length of the outage (now - last heartbeat), the players are told and
    the move is audited; the GM may still resolve it at once. No heartbeat at
    all (a first start) counts as no outage. Safe with several schedulers: each
    deadline is moved with a conditional UPDATE, so only once.
    """
    grace = outage_grace() if grace is None else grace
    if last_heartbeat is None or now - last_heartbeat <= grace:
        return []
    outage = now - last_heartbeat
    missed = db.session.scalars(select(Round).join(Game).where(
        Round.state == "open", Game.state == "running",
        Round.deadline > last_heartbeat, Round.deadline <= now).order_by(Round.id)).all()
    moved = []
    for round_ in missed:
        old = round_.deadline
        done = db.session.execute(
            update(Round).where(Round.id == round_.id, Round.state == "open",
                                Round.deadline <= now)
            .values(deadline=old + outage).execution_options(synchronize_session=False))
        if done.rowcount != 1:  # resolved or moved by someone else meanwhile
            db.session.rollback()
            continue
        db.session.refresh(round_)
        audit(round_.game, actor, "outage_deadline_moved", round=round_.number, old=old,
              new=round_.deadline, outage=outage, last_heartbeat=last_heartbeat)
        events.deadline_moved.send(round_.game, round_=round_, why="outage")
        db.session.commit()
        moved.append(round_)
    return moved
