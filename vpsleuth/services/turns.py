"""Submitting turns: store verbatim, parse, check, apply to the standing turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, insert, select, update

from ..extensions import commit_keeping_loaded, db
from ..mail import notify
from ..models import (
    CHANNELS,
    Game,
    Player,
    Round,
    StandingQuestion,
    StandingTip,
    TurnVersion,
    utcnow,
)
from ..orders import TurnChange, parse_turn
from ..rules import GEM_BY_CODE, Gem, Question, Turn
from ..schedule import format_deadline
from .errors import Invalid, RoundClosed, TurnRefused, WrongState


@dataclass(frozen=True)
class Submission:
    """An accepted turn: the version stored and the turn now standing."""

    version: TurnVersion
    round: Round
    standing: Turn


def standing_turn(round_: Round, player: Player) -> Turn:
    """The question and tips a player has standing in a round."""
    q = db.session.scalar(select(StandingQuestion).where(
        StandingQuestion.round_id == round_.id, StandingQuestion.player_id == player.id))
    tips = db.session.scalars(select(StandingTip).where(
        StandingTip.round_id == round_.id, StandingTip.player_id == player.id))
    return Turn(question=Question.from_codes(q.question) if q else None,
                tips={GEM_BY_CODE[t.gem]: t.location for t in tips})


def submit_turn(player: Player, text: str, *, channel: str, entered_by: str | None = None,
                now: datetime | None = None, round_number: int | None = None,
                on_accept: Callable[[Submission], None] | None = None) -> Submission:
    """Store ``text`` verbatim, then parse and apply it to the open round.

    The version is committed before anything can go wrong, so nothing received
    is ever lost; a refused turn keeps its errors beside it. Raises TurnRefused
    (bad lines), RoundClosed (late, or for a round that is not open) or
    WrongState (game not running, player withdrawn). ``on_accept(submission)``
    is called just before the commit that applies an accepted turn, so a
    caller's own record of it (the inbound mail's status) commits with the turn.
    A refusal carries the id of the version stored as ``exc.version_id``.
    """
    if channel not in CHANNELS:
        raise Invalid(f"unknown channel {channel!r}")
    now = now or utcnow()
    game = player.game
    version = TurnVersion(game_id=game.id, player_id=player.id, channel=channel, text=text,
                          received_at=now, entered_by=entered_by or player.email)
    db.session.add(version)
    # The player, game and rounds this request loaded stay loaded (four queries
    # fewer); what must be current is checked when the turn is applied (_lock).
    commit_keeping_loaded()
    round_ = None
    try:
        round_ = _open_round_for(player, now, round_number)
        parsed = parse_turn(text)
        if not parsed.ok:
            raise TurnRefused(parsed.errors)
        _lock(player, round_)
        _apply(round_, player, parsed.change, version)
    except (TurnRefused, RoundClosed, WrongState) as exc:
        exc.version_id = version.id
        db.session.rollback()
        version.status, version.errors = "refused", exc.message
        version.round_id = round_.id if round_ is not None else None
        db.session.commit()
        raise
    version.status, version.round_id = "accepted", round_.id  # one UPDATE
    standing = standing_turn(round_, player)
    notify.turn_confirmed(player, round_, standing, channel, version.entered_by)
    submission = Submission(version, round_, standing)
    if on_accept is not None:
        on_accept(submission)
    # A plain commit: what the session holds is expired, so whatever it does next
    # (the next mail of an IMAP poll) reads the game afresh.
    db.session.commit()
    return submission


def _open_round_for(player: Player, now: datetime, round_number: int | None) -> Round:
    game = player.game
    name = f"„{game.name}“"  # German quotation marks for the German texts
    if not player.active:
        raise WrongState(f"{player.name} has been withdrawn from {game.name!r}",
                         de=f"{player.name} spielt in {name} nicht mehr mit")
    if game.state == "setup":
        raise WrongState(f"{game.name!r} has not started yet; round 1 opens when it starts",
                         de=f"{name} hat noch nicht begonnen; Runde 1 beginnt mit dem Start")
    if game.state == "finished":
        raise RoundClosed(f"{game.name!r} has ended; no more turns",
                          de=f"{name} ist beendet; es werden keine Züge mehr angenommen")
    if game.state == "paused":
        raise RoundClosed(f"{game.name!r} is paused by the game master; "
                          "send your turn again when it resumes",
                          de=f"{name} ist von der Spielleitung unterbrochen; schick deinen Zug "
                             "noch einmal, wenn es weitergeht")
    round_ = game.open_round
    if round_ is None or round_.state != "open":
        raise RoundClosed(f"no round of {game.name!r} is open right now",
                          de=f"In {name} ist gerade keine Runde offen")
    n, tz = round_.number, game.timezone
    deadline = {lang: format_deadline(round_.deadline, tz, lang) for lang in ("en", "de")}
    if round_number is not None and round_number != n:
        raise RoundClosed(
            f"this turn is for round {round_number}, but round {n} is open "
            f"(deadline {deadline['en']}); send it for round {n} if you mean it for that round",
            de=f"Dieser Zug ist für Runde {round_number}, offen ist aber Runde {n} "
               f"(Abgabetermin {deadline['de']}); schick ihn für Runde {n}, wenn du ihn für "
               "diese Runde meinst")
    if now >= round_.deadline:
        raise RoundClosed(
            f"the deadline of round {n} passed at {deadline['en']}; the round is being "
            f"resolved and round {n + 1} will open with the report",
            de=f"Der Abgabetermin von Runde {n} ist am {deadline['de']} abgelaufen; die Runde "
               f"wird ausgewertet, und Runde {n + 1} beginnt mit dem Bericht")
    return round_


def _lock(player: Player, round_: Round) -> None:
    """Hold the round open until this turn commits; serialise one player's submissions.

    A resolver claims a round with a conditional UPDATE (open -> resolving); this
    writes the same row first, checking that it is still open. So either the turn
    commits before the claim (and the resolution reads it) or the claim came
    first and the turn is refused: never accepted but left out of the scores.
    Taking the round before the player also keeps the two from deadlocking.
    """
    held = db.session.execute(
        update(Round).where(Round.id == round_.id, Round.state == "open")
        .values(state="open").execution_options(synchronize_session=False))
    if held.rowcount != 1:
        raise RoundClosed(f"round {round_.number} of {player.game.name!r} closed for "
                          "resolution while this turn came in; nothing of it was applied",
                          de=f"Runde {round_.number} von „{player.game.name}“ wurde zur "
                             "Auswertung geschlossen, während dieser Zug eintraf; nichts "
                             "davon wurde übernommen")
    db.session.execute(select(Player.id).where(Player.id == player.id).with_for_update())


def _apply(round_: Round, player: Player, change: TurnChange, version: TurnVersion) -> None:
    tips: dict[Gem, str] = {}
    if change.repeat:
        previous = player.game.round(round_.number - 1)
        if previous is not None:  # a gem withdrawn in the same turn is not repeated
            tips.update((gem, location) for gem, location
                        in standing_turn(previous, player).tips.items()
                        if gem not in change.dropped)
    tips.update(change.tips)
    mine = (StandingTip.round_id == round_.id, StandingTip.player_id == player.id)
    if change.drop_all:
        db.session.execute(delete(StandingTip).where(*mine))
    if change.dropped:
        codes = [g.code for g in change.dropped]
        db.session.execute(delete(StandingTip).where(*mine, StandingTip.gem.in_(codes)))
    if tips:
        existing = {t.gem: t for t in db.session.scalars(select(StandingTip).where(
            *mine, StandingTip.gem.in_([g.code for g in tips])))}
        new = []
        for gem, location in tips.items():
            row = existing.get(gem.code)
            if row is None:
                new.append(dict(round_id=round_.id, player_id=player.id, gem=gem.code,
                                location=location, version_id=version.id))
            else:
                row.location, row.version_id = location, version.id
        if new:  # one multi-row INSERT, not one statement per tip
            db.session.execute(insert(StandingTip), new)
    if change.changes_question:
        _set_question(round_, player, change.question, version)


def _set_question(round_: Round, player: Player, question, version: TurnVersion) -> None:
    row = db.session.scalar(select(StandingQuestion).where(
        StandingQuestion.round_id == round_.id, StandingQuestion.player_id == player.id))
    if question is None:
        if row is not None:
            db.session.delete(row)
    elif row is None:
        db.session.add(StandingQuestion(round_id=round_.id, player_id=player.id,
                                        question=question.codes, version_id=version.id))
    else:
        row.question, row.version_id = question.codes, version.id


@dataclass(frozen=True)
class TurnStatus:
    """One row of the GM's status board: no tip contents, only counts."""

    player: Player
    submitted: bool
    last_at: datetime | None
    channel: str | None
    has_question: bool
    tips: int


def round_status(game: Game) -> list[TurnStatus]:
    """Who has a turn standing in the open round, when and by which channel."""
    round_ = game.open_round
    if round_ is None:
        return []
    rows = []
    for p in game.active_players:
        last = db.session.scalar(select(TurnVersion).where(
            TurnVersion.round_id == round_.id, TurnVersion.player_id == p.id,
            TurnVersion.status == "accepted").order_by(TurnVersion.id.desc()).limit(1))
        turn = standing_turn(round_, p)
        rows.append(TurnStatus(p, not turn.is_empty, last.received_at if last else None,
                               last.channel if last else None, turn.question is not None,
                               len(turn.tips)))
    return rows
