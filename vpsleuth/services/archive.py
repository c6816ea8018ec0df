"""The archive: finished games their GM made public, readable by anyone (issue 22, 1).

A game is private unless its GM marks it public (before or after it ends; the
house rules say which). Only a public game that has *finished* is listed or
shown: a public game still running is as unknown to a stranger as a private
one (404), so no tip, question or standing of a running game ever reaches
the archive. Everything shown is read as stored: the reports' results, the
questions and answers, and the story the tell-stories job stored once, whose
rounds keep each gem's possible places (the replay's sheet). Players appear by
their public names only (services/names.py), never an address.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, func, or_, select

from ..extensions import db
from ..i18n import N_, translate
from ..models import Game, Player, Profile
from ..rules import GEMS, LOCATIONS
from . import board, stories
from .errors import Invalid, NotFound
from .games import CONTROL, audit
from .names import public_names
from .reports import RoundReport, build_report, resolved_rounds

PER_PAGE = 20
MAX_QUERY = 80


def set_public(game: Game, on: bool, *, actor: str) -> None:
    """The GM shows the game in the archive once it ends (or takes it out again); audited."""
    if game.practice:
        raise Invalid(N_("a practice game is never shown in the archive"))
    if bool(on) != game.public:
        game.public = bool(on)
        audit(game, actor, "set_public", new=game.public)
    db.session.commit()


def _listed():
    return select(Game).where(Game.public, Game.state == "finished", Game.practice.is_(False))


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def listing(query: str = "", page: int = 1) -> tuple[list[Game], int]:
    """One page of the archive, newest first, and how many games match.

    ``query`` matches a game's name or a player's public name (their display name
    for the game, else their profile's, else the name they played under unless it
    holds an address); never an address, never a name a player has replaced.
    """
    # No name holds a control character, and PostgreSQL text cannot hold NUL: drop them.
    query = CONTROL.sub("", query).strip()[:MAX_QUERY]
    games = _listed()
    if query:
        like = _like(query)
        named = (select(Player.game_id)
                 .outerjoin(Profile, Profile.email == func.lower(Player.email))
                 .where(Player.left_at.is_(None), or_(
                     Player.display_name.ilike(like, escape="\\"),
                     and_(Player.display_name.is_(None),
                          Profile.display_name.ilike(like, escape="\\")),
                     and_(Player.display_name.is_(None), Profile.display_name.is_(None),
                          Player.name.ilike(like, escape="\\"),
                          Player.name.not_like("%@%")))))
        games = games.where(or_(Game.name.ilike(like, escape="\\"), Game.id.in_(named)))
    total = db.session.scalar(select(func.count()).select_from(games.subquery()))
    page = max(1, page)
    found = db.session.scalars(games.order_by(Game.finished_at.desc(), Game.id.desc())
                               .offset((page - 1) * PER_PAGE).limit(PER_PAGE)).all()
    return list(found), total


def public_game(game_id: int) -> Game:
    """A game of the archive; NotFound alike for a private one, a running one and none."""
    game = db.session.get(Game, game_id)
    if game is None or not game.public or game.state != "finished" or game.practice:
        raise NotFound(N_("no game {id} in the archive"), id=game_id)
    return game


def report(game: Game, number: int | None, lang: str) -> RoundReport:
    """A round's report as the archive shows it: players by their public names."""
    return build_report(game, number, lang, public=True)


@dataclass(frozen=True)
class ArchivedPost:
    """A board post as the archive shows it: the seat's public name, no text if hidden
    or deleted (the GM's hiding holds for the public too)."""

    id: int
    author: str
    at: datetime
    body: str | None
    hidden: bool
    deleted: bool
    pinned: bool


def board_posts(game: Game, lang: str) -> list[ArchivedPost]:
    """The game's board, oldest first; players by their public names, never an address."""
    names = public_names(game, lang)
    gm = translate(lang, board.GM_NAME)
    gm = gm[:1].upper() + gm[1:]  # it heads the post
    return [ArchivedPost(p.id, gm if p.player_id is None else names.get(p.player_id, "?"),
                         p.created_at,
                         None if p.hidden_at or p.deleted_at else p.body,
                         p.hidden_at is not None and p.deleted_at is None,
                         p.deleted_at is not None, p.pinned)
            for p in board.all_posts(game)]


@dataclass(frozen=True)
class Step:
    """What everyone could know after round ``number``: its answers, the sheet, the standings."""

    number: int
    rounds: int
    report: RoundReport
    possible: dict[str, str]  # gem code -> the places still possible, "ABX"
    certain: int


def step(game: Game, number: int, lang: str) -> tuple[str, Step | None]:
    """(state, step): the replay after round ``number``, or None while the story that
    holds the sheet's deductions is being told (state as stories.current)."""
    done = resolved_rounds(game)
    if not 1 <= number <= len(done):
        raise NotFound(N_("round {round} of '{game}' has not been resolved"), round=number,
                       game=game.name)
    state, told = stories.current_with_places(game)
    if told is None:
        return state, None
    entry = told["rounds"][number - 1]
    possible = entry["possible"]
    return "ready", Step(number, len(done), report(game, number, lang), possible,
                        sum(1 for places in possible.values() if len(places) == 1))


def sheet_rows(possible: dict[str, str]) -> list[tuple[str, list[str]]]:
    """The sheet as rows: each gem's code and, per location, "certain", "possible" or "out"."""
    rows = []
    for gem in GEMS:
        places = possible.get(gem.code, "")
        rows.append((gem.code, ["certain" if places == loc else "possible" if loc in places
                                else "out" for loc in LOCATIONS]))
    return rows


def _renamed(value, names: dict[str, str]):
    """The story with every player's name (``asked_by``, ``player``) as the archive says it."""
    if isinstance(value, dict):
        return {k: (names.get(v, v) if k in ("asked_by", "player") and isinstance(v, str)
                    else _renamed(v, names)) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    return value


def story(game: Game, lang: str) -> tuple[str, dict | None]:
    """(state, story) as the archive shows it: as stored, players by their public names."""
    state, told = stories.current(game)
    if told is None:
        return state, None
    public = public_names(game, lang)
    return "ready", _renamed(told, {p.name: public[p.id] for p in game.players})
