"""Submitting turns: store verbatim, parse, check, apply to the standing turn.

Reading what stands (the standing turn, the GM's board) is standing_turns.py's job.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache

from flask import current_app
from sqlalchemy import delete, func, insert, select, update

from ..extensions import commit_keeping_loaded, db
from ..i18n import N_
from ..models import (
    CHANNELS,
    Player,
    Round,
    SeatChange,
    StandingQuestion,
    StandingTip,
    TurnVersion,
    utcnow,
)
from ..orders import TurnChange, parse_turn
from ..rules import GEM_BY_CODE, Gem, Question, Turn
from . import events, presence, reconnect
from .errors import Invalid, RoundClosed, TurnRefused, WrongState, deadline_in
from .standing_turns import RECEIPT_ORDER_LAST_FIRST, standing_turn

log = logging.getLogger(__name__)


class PlayerLeft(WrongState):
    """The seat's person deleted their account while this turn was on its way."""


LEFT = N_("this seat's player has deleted their account; nothing of the turn was applied")


@dataclass(frozen=True)
class Submission:
    """An accepted turn: the version stored and the turn now standing."""

    version: TurnVersion
    round: Round
    standing: Turn


def submit_turn(player: Player, text: str, *, channel: str, entered_by: str | None = None,
                now: datetime | None = None, round_number: int | None = None,
                on_accept: Callable[[Submission], None] | None = None,
                signoff: tuple[str, ...] = ()) -> Submission:
    """Store ``text`` verbatim, then parse and apply it to the open round.

    ``signoff``: lines the caller set aside as a sign-off (mail only; see
    orders/signoff.py); the confirmation names them word for word.

    The version is committed before anything can go wrong, so nothing received
    is ever lost; a refused turn keeps its errors beside it. Should the database
    go away while the turn is applied (a failover), the application is tried
    again for TURN_RETRY_SECONDS, unless the version's status shows it landed. Raises TurnRefused
    (bad lines), RoundClosed (late, or for a round that is not open) or
    WrongState (game not running, player withdrawn). ``on_accept(submission)``
    is called just before the commit that applies an accepted turn, so a
    caller's own record of it (the inbound mail's status) commits with the turn.
    A refusal carries the id of the version stored as ``exc.version_id``.

    "Later" means received later: versions count in the order of their
    received_at (``now``, taken as the turn comes in, before it is stored), of
    two received at the same moment the one stored first (its id) first;
    whatever order they are stored or reach the lock in; see _apply.
    """
    if channel not in CHANNELS:
        raise Invalid(f"unknown channel {channel!r}")
    now = now or utcnow()
    game = player.game
    version = TurnVersion(game_id=game.id, player_id=player.id, channel=channel, text=text,
                          received_at=now, entered_by=entered_by or player.email)
    db.session.add(version)
    presence.turn_received(player, channel, now)  # an invited player who writes has joined
    # The player, game and rounds this request loaded stay loaded (four queries
    # fewer); what must be current is checked when the turn is applied (_lock).
    commit_keeping_loaded()
    version_id, tries = version.id, 0

    def apply() -> Submission:
        # Tried again while the database is away (a failover, a restart). The version is
        # stored, and whether an earlier try's applying commit landed is in its status:
        # each try after the first reads it afresh before anything else, so a turn is
        # never applied twice.
        nonlocal player, version, tries
        tries += 1
        if tries > 1:
            player = db.session.get(Player, player.id, populate_existing=True)
            version = db.session.get(TurnVersion, version_id, populate_existing=True)
            if version.status == "accepted":  # the commit landed before the line went
                round_ = db.session.get(Round, version.round_id)
                submission = Submission(version, round_, standing_turn(round_, player))
                events.after_turn_accepted.send(player, game=player.game, channel=channel,
                                                practice=player.game.practice, now=now)
                return submission
        return _apply_stored(player, version, text, channel, now, round_number,
                             on_accept, signoff)

    return reconnect.retried(apply, seconds=_retry_seconds(),
                             what=f"turn version {version_id} applied")


def _retry_seconds() -> float:
    """How long a turn's application is retried while the database is away (TURN_RETRY_SECONDS)."""
    return float(current_app.config.get("TURN_RETRY_SECONDS", 5))


def _apply_stored(player: Player, version: TurnVersion, text: str, channel: str,
                  now: datetime, round_number: int | None,
                  on_accept: Callable[[Submission], None] | None,
                  signoff: tuple[str, ...]) -> Submission:
    """Parse and apply a stored version to the open round, in one transaction; commit."""
    game = player.game
    round_ = None
    try:
        round_ = _open_round_for(player, now, round_number)
        parsed = parse_turn(text)
        if not parsed.ok:
            raise TurnRefused(parsed.errors)
        latest = _lock(player, round_)
        standing = _apply(round_, player, parsed.change, version, latest)
    except (TurnRefused, RoundClosed, WrongState) as exc:
        exc.version_id = version.id
        db.session.rollback()
        version.status, version.errors = "refused", exc.message
        if player.left_at is not None:  # read afresh: stored as the person left, keep nothing
            version.text, version.entered_by = "", player.name
            version.errors = PlayerLeft(LEFT).message
        version.round_id = round_.id if round_ is not None else None
        db.session.commit()
        raise
    version.status, version.round_id = "accepted", round_.id  # one UPDATE
    events.turn_accepted.send(player, round_=round_, standing=standing, channel=channel,
                              entered_by=version.entered_by, signoff=signoff)
    submission = Submission(version, round_, standing)
    if on_accept is not None:
        on_accept(submission)
    practice = game.practice  # read before the commit expires it
    # A plain commit: what the session holds is expired, so whatever it does next
    # (the next mail of an IMAP poll) reads the game afresh (reading game.practice after
    # it would load the game again and leave that copy stale for the next mail).
    db.session.commit()
    # A practice round settles now (services/after_commit.py).
    events.after_turn_accepted.send(player, game=game, channel=channel, practice=practice,
                                    now=now)
    return submission


def holds_from(player: Player) -> int | None:
    """The round the seat's present holder plays from (None: the seat never changed hands;
    services/seats.py hands seats on)."""
    return db.session.scalar(select(func.max(SeatChange.from_round)).where(
        SeatChange.player_id == player.id))


def _open_round_for(player: Player, now: datetime, round_number: int | None) -> Round:
    game = player.game
    if not player.active:
        raise WrongState(N_("{player} has been withdrawn from '{game}'"),
                         player=player.name, game=game.name)
    if game.state == "setup":
        raise WrongState(N_("'{game}' has not started yet; round 1 opens when it starts"),
                         game=game.name)
    if game.state == "finished":
        raise RoundClosed(N_("'{game}' has ended; no more turns"), game=game.name)
    if game.state == "paused":
        raise RoundClosed(N_("'{game}' is paused by the game master; send your turn again "
                             "when it resumes"), game=game.name)
    round_ = game.open_round
    if round_ is None or round_.state != "open":
        raise RoundClosed(N_("no round of '{game}' is open right now"), game=game.name)
    n, deadline = round_.number, deadline_in(round_.deadline, game.timezone)
    # Lateness first: a round past its deadline takes no turn, whichever round one is for,
    # so it must not be offered as open (with a deadline already past).
    if now >= round_.deadline:
        raise RoundClosed(
            N_("the deadline of round {round} passed at {deadline}; the round is being "
               "resolved and round {next} will open with the report"),
            round=n, deadline=deadline, next=n + 1)
    if round_number is not None and round_number != n:
        raise RoundClosed(
            N_("this turn is for round {sent}, but round {round} is open (deadline "
               "{deadline}); send it for round {round} if you mean it for that round"),
            sent=round_number, round=n, deadline=deadline)
    # A seat handed on after its turn for this round came in (services/seats.py): that
    # turn stands for the round, and the newcomer plays from the next.
    holder_from = holds_from(player)
    if holder_from is not None and n < holder_from:
        raise RoundClosed(N_("this seat is yours from round {round}: the turn sent for round "
                             "{open} before you took it over stands; send your first turn when "
                             "round {round} opens"), round=holder_from, open=n)
    return round_


def _lock(player: Player, round_: Round) -> tuple[datetime, int] | None:
    """Hold the round open until this turn commits; serialise one player's submissions.

    A resolver claims a round with a conditional UPDATE (open -> resolving); this
    writes the same row first, checking that it is still open. So either the turn
    commits before the claim (and the resolution reads it) or the claim came
    first and the turn is refused: never accepted but left out of the scores.
    Taking the round before the player also keeps the two from deadlocking.

    Returns the receipt order (received_at, id) of the player's version received
    last of those applied in this round (None if none yet), read once both locks
    are held: every turn applied before has committed by then (PostgreSQL reads
    each statement afresh; SQLite holds its write lock from the round UPDATE
    on), and none can be applied meanwhile.
    """
    held = db.session.execute(
        update(Round).where(Round.id == round_.id, Round.state == "open")
        .values(state="open").execution_options(synchronize_session=False))
    if held.rowcount != 1:
        raise RoundClosed(N_("round {round} of '{game}' closed for resolution while this "
                             "turn came in; nothing of it was applied"),
                          round=round_.number, game=player.game.name)
    # The seat as it is now, not as this request loaded it: its person may have left
    # (services/leaving.py takes these same locks) since the version was stored.
    left = db.session.execute(select(Player.left_at).where(Player.id == player.id)
                              .with_for_update(of=Player)).scalar_one()
    if left is not None:
        raise PlayerLeft(LEFT)
    last = db.session.execute(select(TurnVersion.received_at, TurnVersion.id).where(
        TurnVersion.player_id == player.id, TurnVersion.round_id == round_.id,
        TurnVersion.status == "accepted").order_by(*RECEIPT_ORDER_LAST_FIRST)
        .limit(1)).first()
    return (last.received_at, last.id) if last is not None else None


@dataclass
class _Standing:
    """A standing turn being worked out: each tip and the question with its version."""

    tips: dict[Gem, tuple[str, int]] = field(default_factory=dict)  # gem -> location, version
    question: tuple[Question, int] | None = None

    def apply(self, change: TurnChange, version_id: int,
              last_round: Callable[[], Mapping[Gem, str]]) -> None:
        """A later turn replaces the question and replaces tips gem by gem.

        Its lines apply in the order written, a later one winning (RULES.md 6a).
        """
        change.apply_tips(self.tips, last_round, lambda location: (location, version_id))
        if change.changes_question:
            self.question = None if change.question is None else (change.question, version_id)

    @property
    def turn(self) -> Turn:
        return Turn(question=self.question[0] if self.question else None,
                    tips={gem: location for gem, (location, _) in self.tips.items()})


def _apply(round_: Round, player: Player, change: TurnChange, version: TurnVersion,
           latest: tuple[datetime, int] | None) -> Turn:
    """Apply ``change`` as if every version had been applied in the order received.

    A version's time of receipt is taken as it comes in, its id when it is
    stored, and only then does it wait for the lock: one received first can be
    stored after one received later, and reach the lock after it (a slow mail
    beside a quick API call). The usual case, nothing received later applied
    yet, adds it on top of the standing turn. Otherwise the standing turn is worked out again
    from every version applied so far and this one, in receipt order. Refusing
    the latecomer instead would be wrong: tips merge gem by gem, so an earlier
    version can still hold tips for gems the later one never mentions.
    Returns the turn now standing.
    """
    last_round = cache(lambda: _tips_in_round(player, round_.number - 1))
    # Read afresh under the lock: rows this session loaded before may have changed since.
    fresh = {"populate_existing": True}
    tips = {GEM_BY_CODE[t.gem]: t for t in db.session.scalars(select(StandingTip).where(
        StandingTip.round_id == round_.id, StandingTip.player_id == player.id)
        .execution_options(**fresh))}
    question = db.session.scalar(select(StandingQuestion).where(
        StandingQuestion.round_id == round_.id, StandingQuestion.player_id == player.id)
        .execution_options(**fresh))
    if latest is None or latest < (version.received_at, version.id):
        standing = _Standing({gem: (t.location, t.version_id) for gem, t in tips.items()},
                             (Question.from_codes(question.question), question.version_id)
                             if question else None)
        standing.apply(change, version.id, last_round)
    else:
        standing = _Standing()
        for version_id, earlier in _applied_changes(round_, player, version, change):
            standing.apply(earlier, version_id, last_round)
    _store_tips(round_, player, tips, standing.tips)
    _store_question(round_, player, question, standing.question)
    return standing.turn


def _tips_in_round(player: Player, number: int) -> Mapping[Gem, str]:
    previous = player.game.round(number)
    return standing_turn(previous, player).tips if previous is not None else {}


def _applied_changes(round_: Round, player: Player, version: TurnVersion,
                     change: TurnChange) -> list[tuple[int, TurnChange]]:
    """Every version of the player's applied in the round, and this one, in receipt order."""
    changes = [((version.received_at, version.id), change)]
    for received_at, version_id, text in db.session.execute(
            select(TurnVersion.received_at, TurnVersion.id, TurnVersion.text).where(
                TurnVersion.player_id == player.id, TurnVersion.round_id == round_.id,
                TurnVersion.status == "accepted")):
        parsed = parse_turn(text)
        if parsed.ok:
            changes.append(((received_at, version_id), parsed.change))
        else:  # accepted once, so only a changed parser can get here
            log.warning("turn version %s was accepted but no longer parses; left out",
                        version_id)
    return [(version_id, c) for (_, version_id), c in sorted(changes, key=lambda i: i[0])]


def _store_tips(round_: Round, player: Player, rows: dict[Gem, StandingTip],
                tips: dict[Gem, tuple[str, int]]) -> None:
    """Make the stored tips ``tips``, writing only what differs."""
    gone = [row.id for gem, row in rows.items() if gem not in tips]
    if gone:
        db.session.execute(delete(StandingTip).where(StandingTip.id.in_(gone)))
    new = []
    for gem, (location, version_id) in tips.items():
        row = rows.get(gem)
        if row is None:
            new.append(dict(round_id=round_.id, player_id=player.id, gem=gem.code,
                            location=location, version_id=version_id))
        elif (row.location, row.version_id) != (location, version_id):
            row.location, row.version_id = location, version_id
    if new:  # one multi-row INSERT, not one statement per tip
        db.session.execute(insert(StandingTip), new)


def _store_question(round_: Round, player: Player, row: StandingQuestion | None,
                    question: tuple[Question, int] | None) -> None:
    if question is None:
        if row is not None:
            db.session.delete(row)
    elif row is None:
        db.session.add(StandingQuestion(round_id=round_.id, player_id=player.id,
                                        question=question[0].codes, version_id=question[1]))
    elif (row.question, row.version_id) != (question[0].codes, question[1]):
        row.question, row.version_id = question[0].codes, question[1]
