"""Practice: one human against computer players, kept apart from real games.

A practice game has no game master: the human is its only human player and
never gets a GM's powers (the distribution, resolving, entering turns), so the
trust boundaries stay those of any player. It is never listed as open, sends
no mail (mail/notify.has_mailbox), resolves as soon as the human's turn is in
(early resolution: the bots' turns are in from the moment a round opens), and
its pages say "Practice".
"""

from __future__ import annotations

from datetime import datetime, timedelta

from babel.dates import format_date
from babel.lists import format_list
from sqlalchemy import func, or_, select

from ..extensions import db
from ..i18n import N_, locale_of, translate
from ..models import Game, Player, utcnow
from ..rules import Ruleset
from ..rules.schedule import to_local, weekly
from . import games, resolution
from .bots import LEVELS, add_bot
from .errors import Invalid, WrongState

MAX_BOTS = 6
MAX_RUNNING = 3  # running practice games per address: enough to try things, not a flood
BOT_NAMES = ("Ada", "Babbage", "Clue", "Dupin", "Eliza", "Fell")


def create_practice(email: str, *, name: str, bots: int, level: str, language: str = "en",
                    rounds: int = 12, timezone: str = "UTC", seed: int | None = None,
                    now: datetime | None = None) -> Game:
    """Start a practice game for ``email`` (playing as ``name``) against ``bots`` bots.

    ``seed`` makes the deal reproducible and exists for tests and the terminal.
    """
    now = now or utcnow()
    if not 1 <= bots <= MAX_BOTS:
        raise Invalid(N_("a practice game has 1 to {most} computer players"), most=MAX_BOTS)
    if level not in LEVELS:
        raise Invalid(N_("a bot's level is one of {levels}"), levels=", ".join(LEVELS))
    running = db.session.scalar(select(func.count(Game.id)).join(Player).where(
        Game.practice, Game.state == "running", func.lower(Player.email) == email.lower()))
    if running >= MAX_RUNNING:
        raise WrongState(N_("you have {running} practice games running; finish one first"),
                         running=running)
    taken, bot_names = {name.strip().lower()}, []
    for _ in range(bots):
        bot_names.append(next(n for n in BOT_NAMES if n.lower() not in taken))
        taken.add(bot_names[-1].lower())
    # The deadline only ends a round the player left alone; their turn resolves it.
    first = to_local(now + timedelta(days=7), timezone).replace(second=0, microsecond=0,
                                                                tzinfo=None)
    game = games.create_game(practice_name(bot_names, now, language), weekly(first, timezone),
                             Ruleset(rounds=rounds, early_resolution=True), language=language,
                             actor="practice", reminder_hours=[], after_early="fresh")
    game.practice = True
    db.session.commit()
    games.add_player(game, name, email, language=language, actor="practice", invite=False,
                     now=now)
    for bot_name in bot_names:
        add_bot(game, bot_name, level, actor="practice", now=now)
    games.start_game(game, now=now, seed=seed, actor="practice")
    return game


def practice_name(bot_names: list[str], now: datetime, language: str) -> str:
    """A name a person would give it: "Practice with Ada, Babbage and Clue, 1 Dec 2026".

    Game names are unique across the service, so a second such game that day
    is "... (2)".
    """
    locale = locale_of(language)
    base = translate(language, "Practice with {names}, {day}").format(
        names=format_list(bot_names, locale=locale), day=format_date(now, "medium",
                                                                     locale=locale))
    name, n = base, 1
    # The exact name too, as games.create_game: SQLite's lower() leaves "Ü" as it is.
    while db.session.scalar(select(Game.id).where(or_(func.lower(Game.name) == name.lower(),
                                                      Game.name == name))):
        n += 1
        name = f"{base} ({n})"
    return name


def human_of(game: Game) -> Player:
    """The one human player of a practice game."""
    return next(p for p in game.players if not p.is_bot)


def settle(game: Game, *, now: datetime | None = None) -> None:
    """Resolve the open round of a practice game once every turn is in."""
    now = now or utcnow()
    round_ = game.open_round
    if game.practice and round_ is not None and resolution.is_due(round_, now):
        resolution.resolve_round(game, now=now, number=round_.number, actor="practice")
