"""Computer players in a game: adding one, and sending its turn when a round opens.

The driver is the only part that touches the database: it builds the public
record (the answers of the resolved rounds, as the reports publish them), hands it to the
pure brain (bots/brain.py) with the bot's own name and last tips, and sends
the text it returns through the same turn service as everyone (channel
"bot"). The GameSecret is never read here.
"""

from __future__ import annotations

import logging
import random
import uuid
from datetime import datetime

from sqlalchemy import select

from ..bots import LEVELS, Me, decide
from ..engine import Answered, PublicRecord
from ..extensions import db
from ..i18n import N_
from ..models import Game, Player, Round, StandingQuestion, StandingTip, utcnow
from ..rules import Question
from . import games, standing_turns, turns
from .errors import Invalid, RoundClosed, WrongState

log = logging.getLogger(__name__)
LEVEL_WORDS = (N_("easy"), N_("medium"), N_("hard"))  # the levels as pages show them
BOT_DOMAIN = "bots.invalid"  # RFC 2606: an address that can never receive mail


def add_bot(game: Game, name: str, level: str, *, actor: str = "gm",
            now: datetime | None = None) -> Player:
    """A computer player of ``level`` in ``game``, before or during the game.

    It has an address of its own that no mail can reach (mail/notify.py sends
    nothing to a bot anyway); it plays from the next round that opens, or at
    once if a round is open now.
    """
    if level not in LEVELS:
        raise Invalid(N_("a bot's level is one of {levels}, not {level}"),
                      levels=", ".join(LEVELS), level=repr(level))
    email = f"bot-{uuid.uuid4().hex[:12]}@{BOT_DOMAIN}"
    player = games.add_player(game, name, email, language="en", actor=actor, invite=False,
                              now=now)
    player.bot_level = level
    games.audit(game, actor, "add_bot", player=player.name, level=level)
    db.session.commit()
    if game.state == "running":
        play_bots(game, now=now)
    return player


def _has_turn(round_: Round, player: Player) -> bool:
    return bool(db.session.scalar(select(StandingQuestion.id).where(
        StandingQuestion.round_id == round_.id, StandingQuestion.player_id == player.id))
        or db.session.scalar(select(StandingTip.id).where(
            StandingTip.round_id == round_.id, StandingTip.player_id == player.id).limit(1)))


def record_before(game: Game, number: int) -> PublicRecord:
    """The public record a bot reads in round ``number``: the answers of the rounds before.

    Only what every report published: the questions asked and their answers.
    """
    names = {p.id: p.name for p in game.players}
    done = [r for r in game.rounds_ if r.state == "resolved" and r.number < number]
    rows = db.session.execute(select(StandingQuestion.round_id, StandingQuestion.question,
                                     StandingQuestion.answer, StandingQuestion.player_id)
                              .where(StandingQuestion.round_id.in_([r.id for r in done]))
                              .order_by(StandingQuestion.id)).all()
    rounds = tuple(tuple(Answered(Question.from_codes(codes), answer, names[player_id])
                         for round_id, codes, answer, player_id in rows if round_id == r.id)
                   for r in sorted(done, key=lambda r: r.number))
    return PublicRecord(game.ruleset, rounds)


def bot_turn(player: Player, round_: Round) -> str:
    """What the bot sends in ``round_``: decided from the public record alone."""
    record = record_before(player.game, round_.number)
    previous = player.game.round(round_.number - 1)
    last = standing_turns.standing_turn(previous, player).tips if previous is not None else {}
    # Each bot of the game its own seat, by the order they joined: two bots of
    # one level reading the same record then ask different questions.
    seat = [p.id for p in sorted(player.game.players, key=lambda p: p.id)
            if p.is_bot].index(player.id)
    me = Me(player.name, dict(last), seed=seat)
    rng = random.Random(f"{player.game_id}:{round_.number}:{player.id}")
    return decide(record, me, player.bot_level, rng)


def play_bots(game: Game, *, now: datetime | None = None) -> int:
    """Send the turn of every active bot with none standing in the open round.

    Called where a round opens (game start, resolution) and by the scheduler's
    play-bots job as a safety net; idempotent. Returns how many turns it sent.
    """
    round_ = game.open_round
    now = now or utcnow()
    if game.state != "running" or round_ is None or round_.state != "open" \
            or now >= round_.deadline:  # too late: a turn now would only be stored refused
        return 0
    sent = 0
    for player in [p for p in game.active_players if p.is_bot]:
        if _has_turn(round_, player):
            continue
        text = bot_turn(player, round_)
        try:
            turns.submit_turn(player, text, channel="bot", entered_by=f"bot:{player.bot_level}",
                              now=now, round_number=round_.number)
        except (RoundClosed, WrongState) as exc:  # closed meanwhile: nothing to send
            log.info("bot %d sent no turn in round %d: %s", player.id, round_.number, exc)
            break
        sent += 1
    return sent


def play_all_bots(now: datetime | None = None) -> int:
    """Every running game's bots (the scheduler's safety net)."""
    ids = db.session.scalars(select(Game.id).join(Player).where(
        Game.state == "running", Player.bot_level.is_not(None), Player.active).distinct()).all()
    return sum(play_bots(db.session.get(Game, game_id), now=now) for game_id in ids)
