"""Use cases for setting up and starting a game."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from datetime import datetime

from sqlalchemy import or_, select

from ..extensions import db
from ..i18n import N_
from ..models import AuditEntry, Game, GameSecret, Player, Round, utcnow
from ..rules import Ruleset, commitment, deal, new_salt
from ..rules.missed import MISSED_TURN_RULES
from ..rules.schedule import AFTER_EARLY, Schedule
from . import auth, events
from .errors import Invalid, NotFound, Term, WrongState

_ADDRESS_PART = r"[^@\s<>\"',;\x00-\x1f\x7f]+"
EMAIL_PATTERN = re.compile(rf"^{_ADDRESS_PART}@{_ADDRESS_PART}\.{_ADDRESS_PART}\Z")
LANGUAGES = ("en", "de", "es")
LANGUAGE_ONE_OF = N_("language must be one of {languages}")
MAX_POINTS = 99  # per tip and per bonus, as the API allows: no score nears an integer's range
# Not in a name or label: a line break would reach a mail's Subject or To header, a NUL
# cannot be stored, and none of them shows as anything on a page.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _check_house_rules(rules: Ruleset) -> None:
    """Beyond what makes rules playable: numbers whose scores fit the database."""
    if rules.first_bonus_round > 52:
        raise Invalid(N_("the first bonus round is at most round 52"))
    if rules.points_right > MAX_POINTS or rules.points_wrong < -MAX_POINTS:
        raise Invalid(N_("a tip earns or costs at most {most} points"), most=MAX_POINTS)
    if any(b > MAX_POINTS for b in rules.bonuses):
        raise Invalid(N_("bonus values are at most {most}"), most=MAX_POINTS)


def check_one_line(text: str, what: str) -> None:
    """Refuse ``text`` (a name, a label) if it holds a line break or another control character.

    ``what`` names it, marked for the catalogue: ``N_("a player's name")``.
    """
    if CONTROL.search(text):
        raise Invalid(N_("{what} must be one line of text, without line breaks or control "
                         "characters"), what=Term(what))


def check_missed_turn_rule(rule: str) -> None:
    """Refuse anything but the missed-turn rules (none, repeat, repeat-when-absent)."""
    if rule not in MISSED_TURN_RULES:
        raise Invalid(N_("the missed-turn rule is one of {choices}"),
                      choices=", ".join(MISSED_TURN_RULES))


def check_after_early(choice: str) -> None:
    """Refuse anything but the two choices for the deadline after an early close."""
    if choice not in AFTER_EARLY:
        raise Invalid(N_("after an early close the next deadline is {choices}, not {choice}"),
                      choices=" or ".join(AFTER_EARLY), choice=repr(choice))


def audit(game: Game | None, actor: str, action: str, **detail) -> None:
    """Record one GM (or system) action; committed with the action itself."""
    db.session.add(AuditEntry(game_id=game.id if game else None, actor=actor, action=action,
                              detail=json.dumps(detail, default=str, sort_keys=True)))


def find_game(ref: str | int) -> Game:
    """A game by id or by name (case-insensitive)."""
    game = None
    if str(ref).isdigit():
        game = db.session.get(Game, int(ref))
    if game is None:
        game = db.session.scalar(select(Game).where(db.func.lower(Game.name) == str(ref).lower()))
    if game is None:
        raise NotFound(N_("no game called {ref}"), ref=repr(ref))
    return game


def find_player(game: Game, ref: str | int) -> Player:
    """A player of the game by id, name or email (case-insensitive)."""
    key = str(ref).strip().lower()
    for p in game.players:
        if str(p.id) == key or p.name.lower() == key or p.email.lower() == key:
            return p
    raise NotFound(N_("no player {ref} in game '{game}'"), ref=repr(ref), game=game.name)


def create_game(name: str, schedule: Schedule, rules: Ruleset | None = None, *,
                language: str = "en", actor: str = "gm", game_master_id: int | None = None,
                reminder_hours: list[int] | None = None, after_early: str = "calendar",
                deduction_aid: bool = False, missed_turn_rule: str = "none") -> Game:
    """A new game in setup: players can be added, house rules are fixed now.

    ``after_early``: after a round closed early, the next deadline keeps the
    ``calendar`` or is a ``fresh`` interval from the close (Schedule.following).
    ``deduction_aid``: the players' sheet shows what the public record rules out.
    ``missed_turn_rule``: none, repeat or repeat-when-absent (rules/missed.py).
    """
    name = name.strip()
    if not name or len(name) > 120:
        raise Invalid(N_("a game needs a name of 1 to 120 characters"))
    check_one_line(name, N_("a game's name"))
    # The exact name too: SQLite's lower() leaves non-ASCII letters as they are.
    if db.session.scalar(select(Game.id).where(or_(db.func.lower(Game.name) == name.lower(),
                                                   Game.name == name))):
        raise Invalid(N_("a game called {name} exists already; choose another name"),
                      name=repr(name))
    if language not in LANGUAGES:
        raise Invalid(LANGUAGE_ONE_OF, languages=", ".join(LANGUAGES))
    _check_house_rules(rules or Ruleset())
    hours = sorted(set(reminder_hours if reminder_hours is not None else (24, 4)), reverse=True)
    if any(not 1 <= h <= 24 * 14 for h in hours):
        raise Invalid(N_("reminders are 1 to 336 hours before the deadline"))
    check_after_early(after_early)
    check_missed_turn_rule(missed_turn_rule)
    game = Game(name=name, language=language, timezone=schedule.timezone,
                schedule_json=json.dumps(schedule.to_json()), game_master_id=game_master_id,
                reminder_hours=",".join(str(h) for h in hours), after_early=after_early,
                deduction_aid=bool(deduction_aid), missed_turn_rule=missed_turn_rule)
    game.ruleset = rules or Ruleset()
    db.session.add(game)
    db.session.flush()
    audit(game, actor, "create_game", rules=asdict(game.ruleset), schedule=schedule.to_json(),
          after_early=after_early, deduction_aid=bool(deduction_aid),
          missed_turn_rule=missed_turn_rule)
    db.session.commit()
    return game


def check_new_player(game: Game, name: str, email: str, language: str) -> None:
    """Refuse a newcomer's bad name, address or language, or a name or address that plays
    in the game already (every seat counts, a seat being handed on too)."""
    if not name or len(name) > 80:
        raise Invalid(N_("a player needs a name of 1 to 80 characters"))
    check_one_line(name, N_("a player's name"))
    if not EMAIL_PATTERN.match(email):
        raise Invalid(N_("{address} is not an email address (like name@example.org)"),
                      address=repr(email))
    if language not in LANGUAGES:
        raise Invalid(LANGUAGE_ONE_OF, languages=", ".join(LANGUAGES))
    for other in game.players:
        if other.name.lower() == name.lower():
            raise Invalid(N_("{name} already plays in '{game}'; choose another name"),
                          name=repr(name), game=game.name)
        if other.email.lower() == email.lower():
            raise Invalid(N_("{address} already plays in '{game}' as {name}"), address=email,
                          game=game.name, name=repr(other.name))


def add_player(game: Game, name: str, email: str, *, language: str | None = None,
               actor: str = "gm", invite: bool = True, now: datetime | None = None) -> Player:
    """Add a player; allowed until the game ends (a late joiner starts at 0).

    With ``invite`` the player is invited with a sign-in link of their own
    (events.player_invited: the mail channel queues the invitation).
    """
    if game.state == "finished":
        raise WrongState(N_("game '{game}' has ended; no new players"), game=game.name)
    if game.max_players is not None and len(game.active_players) >= game.max_players:
        raise WrongState(N_("game '{game}' is full: {most} players at most"),
                         game=game.name, most=game.max_players)
    name, email = name.strip(), email.strip()
    language = language or game.language
    check_new_player(game, name, email, language)
    player = Player(game=game, name=name, email=email, language=language)
    db.session.add(player)
    db.session.flush()
    audit(game, actor, "add_player", player=name, email=email)
    if invite:
        events.player_invited.send(player, token=auth.issue_token(
            email, now, purpose="invitation", player=player))
    db.session.commit()
    return player


def withdraw_player(player: Player, *, actor: str = "gm", now: datetime | None = None) -> None:
    """Withdraw a player: no longer active, scores nothing, does not block the end."""
    if not player.active:
        raise WrongState(N_("{name} is already withdrawn"), name=repr(player.name))
    player.active = False
    player.withdrawn_at = now or utcnow()
    audit(player.game, actor, "withdraw_player", player=player.name)
    db.session.commit()


def start_game(game: Game, *, now: datetime | None = None, seed: int | None = None,
               actor: str = "gm") -> Round:
    """Deal, publish the commitment, open round 1 with its scheduled deadline.

    ``seed`` makes the deal reproducible and exists for tests only.
    """
    now = now or utcnow()
    if game.state != "setup":
        raise WrongState(N_("game '{game}' has started already"), game=game.name)
    if not game.active_players:
        raise WrongState(N_("game '{game}' has no players yet; add players first"),
                         game=game.name)
    distribution, salt = deal(seed), new_salt()
    game.secret = GameSecret(distribution=distribution.canonical(), salt=salt)
    game.commitment = commitment(distribution, salt)
    game.state, game.started_at = "running", now
    deadline = Schedule.from_json(game.schedule).deadline(1, not_before=now)
    first = Round(game=game, number=1, deadline=deadline, opened_at=now)
    db.session.add(first)
    audit(game, actor, "start_game", commitment=game.commitment, deadline=deadline)
    db.session.flush()
    events.round_opened.send(game, round_=first)
    db.session.commit()
    events.after_round_opened.send(game, round_=first, now=now)  # bots play
    return first
