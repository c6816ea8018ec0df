"""The missed-turn rule at resolution: last round's tips played again for a silent seat.

The decision is the pure rules floor's (rules/missed.py); this module reads
what it needs (who sent a turn, last round's tips, an absence over the
deadline) and stores the repeated turn as any other: a TurnVersion of channel
``repeat`` (accepted, entered by ``system``, received at the deadline) and the
StandingTip rows it left, so it is scored, ranked and archived like a turn sent.
Never the question. Called by services/resolution.py before the round is scored.
"""

from __future__ import annotations

from sqlalchemy import insert, select

from ..extensions import db
from ..models import Game, Round, RoundResult, StandingTip, TurnVersion
from ..orders.render import format_turn
from ..rules import GEM_BY_CODE
from ..rules.missed import is_repeated
from .absence import covering

REPEAT_CHANNEL = "repeat"


def _senders(round_: Round) -> set[int]:
    """Players with an accepted turn in the round (an empty one counts)."""
    return set(db.session.scalars(select(TurnVersion.player_id).where(
        TurnVersion.round_id == round_.id, TurnVersion.status == "accepted")))


def _last_tips(previous: Round, players: list[int]) -> dict[int, dict[str, str]]:
    tips: dict[int, dict[str, str]] = {}
    for player_id, gem, location in db.session.execute(select(
            StandingTip.player_id, StandingTip.gem, StandingTip.location).where(
            StandingTip.round_id == previous.id, StandingTip.player_id.in_(players))):
        tips.setdefault(player_id, {})[gem] = location
    return tips


def repeat_missed(game: Game, round_: Round) -> set[int]:
    """Store the repeated turns the game's rule asks for; the ids of the players repeated."""
    rule = game.missed_turn_rule or "none"
    previous = game.round(round_.number - 1)
    if rule == "none" or previous is None:
        return set()
    sent = _senders(round_)
    silent = [p for p in game.active_players if p.id not in sent]
    if not silent:
        return set()
    last = _last_tips(previous, [p.id for p in silent])
    repeated: set[int] = set()
    for player in silent:
        tips = last.get(player.id, {})
        absent = rule == "repeat-when-absent" and covering(player, round_.deadline) is not None
        if not is_repeated(rule, sent_a_turn=False, absent_at_deadline=absent,
                           last_tips=tips):
            continue
        text = (f"# repeated automatically: the tips of round {previous.number}\n"
                + format_turn(None, {GEM_BY_CODE[g]: loc for g, loc in tips.items()}))
        version = TurnVersion(game_id=game.id, player_id=player.id, round_id=round_.id,
                              channel=REPEAT_CHANNEL, text=text, received_at=round_.deadline,
                              entered_by="system", status="accepted")
        db.session.add(version)
        db.session.flush()
        db.session.execute(insert(StandingTip.__table__), [dict(
            round_id=round_.id, player_id=player.id, gem=gem, location=location,
            version_id=version.id) for gem, location in tips.items()])
        repeated.add(player.id)
    return repeated


def repeated_in(game: Game, number: int) -> dict[int, int]:
    """{player id: tips played again} for the seats the rule repeated in round ``number``
    (how many, never which: the round mail tells the player no more)."""
    round_ = game.round(number)
    if round_ is None:
        return {}
    return dict(db.session.execute(select(RoundResult.player_id, RoundResult.tips).where(
        RoundResult.round_id == round_.id, RoundResult.repeated.is_(True))).all())
