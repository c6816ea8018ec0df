"""The names the public record shows: a display name per game or per person, never an address.

The archive, the leaderboard and everything anyone may read without playing
show a seat by its public name: the display name the player chose for that
game, else the one they chose in their settings (their profile), else the
name they play under. A name that holds an address is never shown: the seat is
then "player N". A seat whose person left is "former player N" (services/leaving.py).
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from ..i18n import N_, translate
from ..models import Game, Player, Profile
from .errors import Invalid
from .games import check_one_line

MAX_LENGTH = 40
FORMER = N_("former player {number}")
SEAT = N_("player {number}")


def profile_of(email: str) -> Profile | None:
    """The profile of an address, or None while it has none."""
    return db.session.scalar(select(Profile).where(Profile.email == email.strip().lower()))


def ensure_profiles(emails: set[str]) -> dict[str, Profile]:
    """The profiles of these addresses, made where missing (safe at the same time from
    several processes: INSERT ... ON CONFLICT DO NOTHING); added to the session."""
    wanted = sorted({e.strip().lower() for e in emails})
    if not wanted:
        return {}
    dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
    db.session.execute(dialect.insert(Profile).values([{"email": e, "hide_from_leaderboard":
                                                        False} for e in wanted])
                       .on_conflict_do_nothing(index_elements=["email"]))
    rows = db.session.scalars(select(Profile).where(Profile.email.in_(wanted)))
    return {p.email: p for p in rows}


def former_name(number: int | None, lang: str) -> str:
    return translate(lang, FORMER).format(number=number or 0)


def public_names(game: Game, lang: str = "en") -> dict[int, str]:
    """Each seat's public name by player id, unique within the game; bots marked "(bot)"."""
    emails = {p.email.lower() for p in game.players if p.left_at is None and not p.is_bot}
    profiles = dict(db.session.execute(select(Profile.email, Profile.display_name).where(
        Profile.email.in_(sorted(emails)))).all()) if emails else {}
    bot = translate(lang, "bot")
    names: dict[int, str] = {}
    taken: set[str] = set()
    for number, p in enumerate(game.players, start=1):
        if p.left_at is not None:
            name = former_name(p.former_number, lang)
        else:
            name = p.display_name or profiles.get(p.email.lower()) or p.name
            if "@" in name:
                name = translate(lang, SEAT).format(number=number)
            if p.is_bot:
                name = f"{name} ({bot})"
        unique, n = name, 1
        while unique.casefold() in taken:  # a profile name may meet a seat's name
            n += 1
            unique = f"{name} ({n})"
        taken.add(unique.casefold())
        names[p.id] = unique
    return names


def _check(name: str) -> str:
    name = name.strip()
    check_one_line(name, N_("a display name"))
    if len(name) > MAX_LENGTH:
        raise Invalid(N_("a display name has at most {most} characters"), most=MAX_LENGTH)
    if "@" in name:
        raise Invalid(N_("a display name cannot hold an address (no @)"))
    return name


def _others(game: Game, me: Player | None, email: str) -> set[str]:
    """Every name another seat of ``game`` goes by (its name, display name, public name)."""
    public = public_names(game)
    taken: set[str] = set()
    for p in game.players:
        if p is me or (p.email.lower() == email and p.left_at is None):
            continue
        taken |= {p.name.casefold(), public[p.id].casefold()}
        if p.display_name:
            taken.add(p.display_name.casefold())
    return taken


def set_display_name(player: Player, name: str) -> None:
    """The name this seat shows in the archive (empty: the profile's, else the seat's own).

    Refused: an address, control characters, more than 40 characters, or a name
    another seat of the game goes by.
    """
    name = _check(name)
    if name and name.casefold() in _others(player.game, player, player.email.lower()):
        raise Invalid(N_("{name} is taken by another player of '{game}'; choose another"),
                     name=repr(name), game=player.game.name)
    player.display_name = name or None
    db.session.commit()


def set_profile(email: str, *, display_name: str, hide_from_leaderboard: bool) -> Profile:
    """A person's own choices across games: their display name and leaderboard presence.

    The display name is refused where another person uses it (as theirs, or in
    a game this person plays in): nobody can pass for somebody else.
    """
    email = email.strip().lower()
    name = _check(display_name)
    if name:
        clash = db.session.scalar(select(Profile.id).where(
            func.lower(Profile.display_name) == name.lower(), Profile.email != email).limit(1))
        mine = db.session.scalars(select(Player).where(
            func.lower(Player.email) == email, Player.left_at.is_(None))).all()
        if clash or any(name.casefold() in _others(p.game, p, email) for p in mine):
            raise Invalid(N_("{name} is the name of another player; choose another"),
                          name=repr(name))
    profile = ensure_profiles({email})[email]
    profile.display_name = name or None
    profile.hide_from_leaderboard = bool(hide_from_leaderboard)
    db.session.commit()
    return profile
