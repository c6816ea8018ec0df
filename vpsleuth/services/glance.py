"""Games at a glance: the open round, whose turns are in, and when; never what they say.

Who has sent a turn this round is public in a game (its players and its GM
see it), as on the boards of web turn games; what a turn asks or tips stays
with its player until the round is resolved. "Sent" means what early
resolution and the reminders mean by it: a question or a tip is standing.

The list of games costs a fixed number of queries however many games it shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, func, select, union

from ..extensions import db
from ..models import Game, Player, Round, StandingQuestion, StandingTip, TurnVersion
from . import access


@dataclass(frozen=True)
class GameAtAGlance:
    """One game of the viewer's list."""

    game: Game
    round: Round | None  # the open round of a running or paused game
    player: Player | None  # the viewer's own player in the game (None: the GM only)
    is_gm: bool
    sent: int  # active players with a turn in the open round
    of: int  # active players
    mine_in: bool  # the viewer's own turn is in
    last_report: int | None  # the number of the latest resolved round

    @property
    def turn_due(self) -> bool:
        """The viewer plays, may still send a turn, and has none in."""
        return (self.round is not None and self.player is not None and self.player.active
                and self.game.state == "running" and not self.mine_in)


@dataclass(frozen=True)
class TurnIn:
    """One active player of the open round: whether their turn is in, and when it came."""

    player: Player
    sent: bool
    received_at: datetime | None  # when the latest accepted version came in


def _with_turn(round_ids: Iterable[int]):
    """(round_id, player_id) of every player with a question or a tip standing, once."""
    ids = list(round_ids)
    return union(
        select(StandingQuestion.round_id, StandingQuestion.player_id)
        .where(StandingQuestion.round_id.in_(ids)),
        select(StandingTip.round_id, StandingTip.player_id)
        .where(StandingTip.round_id.in_(ids)),
    ).subquery()


def games_at_a_glance(viewer: access.Viewer) -> list[GameAtAGlance]:
    """The viewer's games (access.games_of), each with its round and whose turns are in."""
    games = access.games_of(viewer)
    ids = [g.id for g in games]
    if not ids:
        return []
    open_rounds = {r.game_id: r for r in db.session.scalars(
        select(Round).where(Round.game_id.in_(ids), Round.state != "resolved")
        .order_by(Round.number.desc()))}
    mine = select(Player).where(Player.game_id.in_(ids), func.lower(Player.email) == viewer.email)
    if viewer.player_id is not None:
        mine = mine.where(Player.id == viewer.player_id)
    players = {p.game_id: p for p in db.session.scalars(mine)}
    active = dict(db.session.execute(
        select(Player.game_id, func.count()).where(Player.game_id.in_(ids), Player.active)
        .group_by(Player.game_id)).all())
    reports = dict(db.session.execute(
        select(Round.game_id, func.max(Round.number))
        .where(Round.game_id.in_(ids), Round.state == "resolved").group_by(Round.game_id)).all())
    sent: dict[int, tuple[int, bool]] = {}
    if open_rounds:
        pairs = _with_turn(r.id for r in open_rounds.values())
        own = [p.id for p in players.values()]
        for round_id, count, mine_in in db.session.execute(
                select(pairs.c.round_id, func.count(),
                       func.max(case((pairs.c.player_id.in_(own), 1), else_=0)))
                .join(Player, Player.id == pairs.c.player_id).where(Player.active)
                .group_by(pairs.c.round_id)):
            sent[round_id] = (count, bool(mine_in))
    glances = []
    for game in games:
        live = game.state in ("running", "paused")
        round_ = open_rounds.get(game.id) if live else None
        count, mine_in = sent.get(round_.id, (0, False)) if round_ else (0, False)
        glances.append(GameAtAGlance(
            game=game, round=round_, player=players.get(game.id),
            is_gm=access.is_gm_of(viewer, game), sent=count, of=active.get(game.id, 0),
            mine_in=mine_in, last_report=reports.get(game.id)))
    return glances


def turns_in(round_: Round) -> list[TurnIn]:
    """Every active player of the round's game, by name, with the time their turn came in.

    Names and times only: never a question or a tip (docs/security.md).
    """
    with_turn = _with_turn([round_.id])
    sent = set(db.session.scalars(select(with_turn.c.player_id)))
    received = dict(db.session.execute(
        select(TurnVersion.player_id, func.max(TurnVersion.received_at))
        .where(TurnVersion.round_id == round_.id, TurnVersion.status == "accepted")
        .group_by(TurnVersion.player_id)).all())
    players = sorted(round_.game.active_players, key=lambda p: p.name.lower())
    return [TurnIn(p, p.id in sent, received.get(p.id) if p.id in sent else None)
            for p in players]
