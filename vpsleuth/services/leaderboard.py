"""The leaderboard: the stored ratings as people read them (services/ratings.py keeps them).

A person who hides themselves is neither listed nor found; a person's history
names only games of the public archive. Names are public names (services/names.py):
the profile's display name, else the public name of the person's latest rated seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from ..extensions import db
from ..models import Game, Profile, Rating, RatingChange
from .names import public_names
from .ratings import ordinal_of


@dataclass(frozen=True)
class Standing:
    profile_id: int
    name: str
    ordinal: float
    games: int
    place: int


def _latest_names(profile_ids: list[int], lang: str) -> dict[int, str]:
    """The public name of each profile's latest rated seat (where it chose no name)."""
    latest: dict[int, tuple[int, int]] = {}  # profile -> (game, seat)
    rows = db.session.execute(select(RatingChange.profile_id, RatingChange.game_id,
                                     RatingChange.player_id)
                              .where(RatingChange.profile_id.in_(profile_ids))
                              .order_by(RatingChange.id.desc())).all()
    for pid, game_id, player_id in rows:
        latest.setdefault(pid, (game_id, player_id))
    by_game: dict[int, dict[int, str]] = {}  # one look at each game's names
    for game_id, _ in latest.values():
        if game_id not in by_game:
            by_game[game_id] = public_names(db.session.get(Game, game_id), lang)
    return {pid: by_game[game_id][player_id] for pid, (game_id, player_id) in latest.items()}


def leaderboard(page: int = 1, per_page: int = 50, lang: str = "en"
                ) -> tuple[list[Standing], int]:
    """One page of the leaderboard (highest ordinal first) and how many are on it."""
    listed = (select(Rating, Profile).join(Profile, Profile.id == Rating.profile_id)
              .where(Profile.hide_from_leaderboard.is_(False)))
    total = db.session.scalar(select(func.count()).select_from(listed.subquery()))
    rows = db.session.execute(listed.order_by(Rating.ordinal.desc(), Profile.id)
                              .offset((page - 1) * per_page).limit(per_page)).all()
    fallback = _latest_names([p.id for _, p in rows if not p.display_name], lang)
    first = (page - 1) * per_page + 1
    return [Standing(p.id, p.display_name or fallback.get(p.id, "?"), r.ordinal, r.games,
                     first + i) for i, (r, p) in enumerate(rows)], total


def person(profile_id: int, lang: str = "en") -> tuple[Standing, list[dict]] | None:
    """A listed person's rating and history (newest first); None if hidden or unknown."""
    row = db.session.execute(select(Rating, Profile).join(
        Profile, Profile.id == Rating.profile_id).where(
        Rating.profile_id == profile_id, Profile.hide_from_leaderboard.is_(False))).first()
    if row is None:
        return None
    rating, profile = row
    above = db.session.scalar(select(func.count()).select_from(Rating).join(
        Profile, Profile.id == Rating.profile_id).where(
        Profile.hide_from_leaderboard.is_(False), Rating.ordinal > rating.ordinal))
    name = profile.display_name or _latest_names([profile.id], lang).get(profile.id, "?")
    history = []
    for change in db.session.scalars(select(RatingChange).where(
            RatingChange.profile_id == profile_id).order_by(RatingChange.id.desc())):
        game = db.session.get(Game, change.game_id)
        history.append({"game_id": game.id if game.public else None,
                        "game": game.name if game.public else None, "at": change.at,
                        "rank": change.rank,
                        "players": db.session.scalar(select(func.count()).where(
                            RatingChange.game_id == game.id)),
                        "ordinal": change.ordinal,
                        "change": change.ordinal - ordinal_of(change.mu_before,
                                                            change.sigma_before)})
    return Standing(profile.id, name, rating.ordinal, rating.games, above + 1), history
