"""Ratings over finished games: OpenSkill's Plackett-Luce model (openskill.py).

Why Plackett-Luce: a VP-Sleuth game is a free-for-all of three to many players
ending in one ranking (ties shared), which is exactly what the Plackett-Luce
model of Weng and Lin (2011) rates, every player a team of one. Its update
costs time linear in the number of players (the Bradley-Terry and
Thurstone-Mosteller "full" models compare every pair: quadratic), it handles
ties, and it is openskill's default, the best documented. Defaults: mu 25,
sigma 25/3, beta 25/6, tau 25/300 (a little uncertainty added each game, so
a rating can still move after many games). Shown: the ordinal, mu - 3 sigma, a
rating one can be fairly sure the player has earned (0 for a newcomer).

Which games count: finished games their GM marked rated (a house rule, fixed
at the start), never practice games, and only with at least three human
players. Bots take no part at all: their strength is set by code that changes
between releases, so as fixed anchors they would pull ratings towards a
number that is no longer true; the ranking of the humans among themselves is
what a game says about them. A seat counts with its final total (a withdrawn
seat with the total it had: leaving does not dodge a loss).

Ratings are updated in the transaction that ends a game (services/resolution.py).
The rows of its seats are locked (profiles in order of id) before the update, so
two games ending at once apply one after the other; the ids of the
``rating_change`` rows keep that order, and ``rebuild`` replays every rated
game in it, from the stored results alone, to the same floats.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache

from openskill.models import PlackettLuce
from sqlalchemy import delete, func, insert, select

from ..extensions import db
from ..i18n import N_
from ..models import Game, Player, Profile, Rating, RatingChange, Round, RoundResult
from ..rules import competition_ranks
from .errors import Invalid, WrongState
from .games import audit
from .names import ensure_profiles

MODEL_NAME = "OpenSkill Plackett-Luce"
MIN_HUMANS = 3


@cache
def model() -> PlackettLuce:
    return PlackettLuce()


def set_rated(game: Game, on: bool, *, actor: str) -> None:
    """The GM's house rule: the game counts for the ratings. Fixed once it starts."""
    if game.practice:
        raise Invalid(N_("a practice game is never rated"))
    if game.state != "setup":
        raise WrongState(N_("'{game}' has started; house rules are fixed now"), game=game.name)
    if bool(on) != game.rated:
        game.rated = bool(on)
        audit(game, actor, "set_rated", new=game.rated)
    db.session.commit()


@dataclass(frozen=True)
class Seat:
    player_id: int
    email: str | None  # None: the person left (no identity carries over)
    total: int


def seats(game: Game) -> list[Seat]:
    """The human seats that played (have a result), each with its final total."""
    rows = db.session.execute(select(RoundResult.player_id, RoundResult.total)
                              .join(Round, Round.id == RoundResult.round_id)
                              .where(Round.game_id == game.id)
                              .order_by(Round.number)).all()
    totals = dict(rows)  # the last round's total wins
    return [Seat(p.id, None if p.left_at is not None else p.email.strip().lower(),
                 totals[p.id]) for p in game.players if not p.is_bot and p.id in totals]


def counts(game: Game) -> bool:
    """Whether the game is rated: marked so, not practice, ended, three humans or more."""
    return (game.rated and not game.practice and game.state == "finished"
            and len(seats(game)) >= MIN_HUMANS)


def _ranked(game_seats: list[Seat]) -> list[int]:
    ranks = competition_ranks({s.player_id: s.total for s in game_seats})
    return [ranks[s.player_id] for s in game_seats]


def _apply(game_seats: list[Seat], before: list[tuple[float, float]]
           ) -> list[tuple[float, float]]:
    m = model()
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = m.rate(teams, ranks=_ranked(game_seats))
    return [(team[0].mu, team[0].sigma) for team in rated]


def ordinal_of(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate_finished(game: Game, now: datetime) -> None:
    """Rate a game that just ended, in its transaction (the caller commits)."""
    if not counts(game):
        return
    game_seats = seats(game)
    profiles = ensure_profiles({s.email for s in game_seats if s.email})
    # Lock every seat's profile, in order of id, before reading a rating: a second game
    # ending at the same time with a player in common waits here until this one commits.
    ids = sorted(p.id for p in profiles.values())
    db.session.execute(select(Profile.id).where(Profile.id.in_(ids)).order_by(Profile.id)
                       .with_for_update())
    stored = {r.profile_id: r for r in db.session.scalars(
        select(Rating).where(Rating.profile_id.in_(ids)))}
    default = (model().mu, model().sigma)
    before = []
    for s in game_seats:
        row = stored.get(profiles[s.email].id) if s.email else None
        before.append((row.mu, row.sigma) if row else default)
    after = _apply(game_seats, before)
    ranks = _ranked(game_seats)
    for s, (mu0, sigma0), (mu, sigma), rank in zip(game_seats, before, after, ranks,
                                                   strict=True):
        profile_id = profiles[s.email].id if s.email else None
        db.session.add(RatingChange(game_id=game.id, player_id=s.player_id,
                                    profile_id=profile_id, rank=rank, mu_before=mu0,
                                    sigma_before=sigma0, mu=mu, sigma=sigma,
                                    ordinal=ordinal_of(mu, sigma), at=now))
        if profile_id is None:
            continue
        row = stored.get(profile_id)
        if row is None:
            row = stored[profile_id] = Rating(profile_id=profile_id, games=0)
            db.session.add(row)
        row.mu, row.sigma, row.ordinal = mu, sigma, ordinal_of(mu, sigma)
        row.games, row.updated_at = (row.games or 0) + 1, now
    db.session.flush()


# --- rebuilding ------------------------------------------------------------------------

@dataclass
class Rebuilt:
    """Ratings worked out again from the stored results alone."""

    ratings: dict[int, tuple[float, float, float, int, datetime]]  # profile -> mu, sigma, ...
    changes: list[tuple]  # (game, player, profile, rank, mu0, sigma0, mu, sigma, ordinal, at)

    def differences(self) -> list[str]:
        """Where the stored ratings and history differ from these (empty: they agree)."""
        stored = {r.profile_id: (r.mu, r.sigma, r.ordinal, r.games, r.updated_at)
                  for r in db.session.scalars(select(Rating))}
        out = [f"rating of profile {pid}: stored {stored.get(pid)}, rebuilt {value}"
               for pid, value in self.ratings.items() if stored.get(pid) != value]
        out += [f"profile {pid} has a stored rating and no rated game"
                for pid in stored if pid not in self.ratings]
        history = [_change_key(c) for c in db.session.scalars(
            select(RatingChange).order_by(RatingChange.id))]
        if history != self.changes:
            differ = sum(1 for a, b in zip(history, self.changes, strict=False) if a != b)
            out.append(f"history: {len(history)} rows stored, {len(self.changes)} rebuilt, "
                       f"{differ + abs(len(history) - len(self.changes))} differ")
        return out


def _change_key(c: RatingChange) -> tuple:
    return (c.game_id, c.player_id, c.profile_id, c.rank, c.mu_before, c.sigma_before, c.mu,
            c.sigma, c.ordinal, c.at)


def _all_seats(game_ids: list[int]) -> dict[int, list[Seat]]:
    """``seats`` of many games at once: two queries, however many games."""
    totals: dict[int, int] = {}
    for start in range(0, len(game_ids), 500):
        chunk = game_ids[start:start + 500]
        totals.update(db.session.execute(
            select(RoundResult.player_id, RoundResult.total)
            .join(Round, Round.id == RoundResult.round_id)
            .where(Round.game_id.in_(chunk)).order_by(Round.number)).all())
    out: dict[int, list[Seat]] = {g: [] for g in game_ids}
    for start in range(0, len(game_ids), 500):
        for pid, game_id, email, bot, left in db.session.execute(
                select(Player.id, Player.game_id, Player.email, Player.bot_level, Player.left_at)
                .where(Player.game_id.in_(game_ids[start:start + 500])).order_by(Player.id)):
            if bot is None and pid in totals:
                out[game_id].append(Seat(pid, None if left is not None
                                         else email.strip().lower(), totals[pid]))
    return out


def _rated() -> tuple[list[Game], dict[int, list[Seat]]]:
    """Every rated game in the order it was rated (then by its end), with its seats."""
    first = dict(db.session.execute(select(RatingChange.game_id, func.min(RatingChange.id))
                                    .group_by(RatingChange.game_id)).all())
    found = db.session.scalars(select(Game).where(
        Game.rated, Game.state == "finished", Game.practice.is_(False))).all()
    every = _all_seats([g.id for g in found])
    done = [g for g in found if len(every[g.id]) >= MIN_HUMANS]
    done.sort(key=lambda g: (first.get(g.id, float("inf")), g.finished_at, g.id))
    return done, every


def rated_games() -> list[Game]:
    """Every rated game, in the order it was rated (then by the end, for any not yet)."""
    return _rated()[0]


def recompute() -> Rebuilt:
    """Every rating and history row again, from the stored results (nothing written but
    the profiles of addresses that had none)."""
    state: dict[int, list] = {}
    changes = []
    default = (model().mu, model().sigma)
    done, every = _rated()
    profiles = ensure_profiles({s.email for g in done for s in every[g.id] if s.email})
    for game in done:
        game_seats = every[game.id]
        ids = [profiles[s.email].id if s.email else None for s in game_seats]
        before = [tuple(state[i][:2]) if i in state else default for i in ids]
        after = _apply(game_seats, before)
        for s, pid, b, (mu, sigma), rank in zip(game_seats, ids, before, after,
                                                _ranked(game_seats), strict=True):
            changes.append((game.id, s.player_id, pid, rank, b[0], b[1], mu, sigma,
                            ordinal_of(mu, sigma), game.finished_at))
            if pid is not None:
                games = state[pid][3] + 1 if pid in state else 1
                state[pid] = [mu, sigma, ordinal_of(mu, sigma), games, game.finished_at]
    return Rebuilt({pid: tuple(v) for pid, v in state.items()}, changes)


def rebuild(*, write: bool = True) -> list[str]:
    """Recompute every rating; with ``write`` store the result. Returns the differences
    found against what was stored before (empty: the stored values were right)."""
    done = recompute()
    found = done.differences()
    if write and found:
        store(done)
    db.session.commit()
    return found


def store(done: Rebuilt) -> None:
    """Replace the stored ratings and history by ``done`` (the caller commits)."""
    db.session.execute(delete(RatingChange))
    db.session.execute(delete(Rating))
    keys = ("game_id", "player_id", "profile_id", "rank", "mu_before", "sigma_before", "mu",
            "sigma", "ordinal", "at")
    for start in range(0, len(done.changes), 500):  # in order: the ids keep it
        db.session.execute(insert(RatingChange), [dict(zip(keys, change, strict=True))
                                                  for change in done.changes[start:start + 500]])
    if done.ratings:
        db.session.execute(insert(Rating), [
            {"profile_id": pid, "mu": mu, "sigma": sigma, "ordinal": ordinal, "games": games,
             "updated_at": at} for pid, (mu, sigma, ordinal, games, at) in done.ratings.items()])
    db.session.flush()
