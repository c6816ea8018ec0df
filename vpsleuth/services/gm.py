"""What a game master does while a game runs: pause, extend, enter turns, ..."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import update

from ..extensions import db
from ..i18n import N_
from ..models import ApiToken, Game, Player, Round, utcnow
from . import auth, events, sessions, turns
from .errors import Invalid, WrongState, deadline_in
from .games import EMAIL_PATTERN, audit, check_after_early, check_missed_turn_rule


def _open_round(game: Game) -> Round:
    round_ = game.open_round
    if round_ is None or game.state not in ("running", "paused"):
        raise WrongState(N_("'{game}' has no open round (state: {state})"), game=game.name,
                         state=game.state)
    return round_


def extend_deadline(game: Game, deadline: datetime, *, actor: str,
                    now: datetime | None = None) -> Round:
    """Move the open round's deadline to a later time; players are told."""
    round_ = _open_round(game)
    if deadline.tzinfo is not None and deadline <= round_.deadline:
        raise Invalid(N_("the new deadline must be later than the current one ({deadline}) "
                         "and in the future"), deadline=deadline_in(round_.deadline, game.timezone))
    return move_deadline(game, deadline, actor=actor, now=now)


def move_deadline(game: Game, deadline: datetime, *, actor: str,
                  now: datetime | None = None) -> Round:
    """Move the open round's deadline later or earlier, never into the past; players are told.

    Brought forward, a turn already in stands and the round closes sooner; the
    mail to the players says which way it moved.
    """
    now = now or utcnow()
    round_ = _open_round(game)
    if deadline.tzinfo is None:
        raise Invalid(N_("give the new deadline with its time zone"))
    if deadline <= now:
        raise Invalid(N_("the new deadline must be in the future; it is now {now}"),
                      now=deadline_in(now, game.timezone))
    if deadline == round_.deadline:
        raise Invalid(N_("that is the current deadline; choose another time"))
    later = deadline > round_.deadline
    old, round_.deadline = round_.deadline, deadline
    audit(game, actor, "extend_deadline" if later else "advance_deadline",
          round=round_.number, old=old, new=deadline)
    events.deadline_moved.send(game, round_=round_, why="extended" if later else "advanced")
    db.session.commit()
    return round_


def set_after_early(game: Game, choice: str, *, actor: str) -> None:
    """After a round closes early: keep the ``calendar`` or a ``fresh`` interval (audited).

    May change at any time, also while the game runs; it applies from the next close.
    """
    check_after_early(choice)
    if game.state == "finished":
        raise WrongState(N_("'{game}' has ended"), game=game.name)
    if choice != game.after_early:
        old, game.after_early = game.after_early, choice
        audit(game, actor, "set_after_early", old=old, new=choice)
    db.session.commit()


def set_deduction_aid(game: Game, on: bool, *, actor: str) -> None:
    """Switch the deduction aid house rule (audited); like every house rule, only in setup."""
    if game.state != "setup":
        raise WrongState(N_("'{game}' has started; house rules are fixed now"), game=game.name)
    if bool(on) != game.deduction_aid:
        game.deduction_aid = bool(on)
        audit(game, actor, "set_deduction_aid", new=game.deduction_aid)
    db.session.commit()


def set_missed_turn_rule(game: Game, rule: str, *, actor: str) -> None:
    """Choose what a missed turn plays (rules/missed.py), audited; only in setup."""
    if game.state != "setup":
        raise WrongState(N_("'{game}' has started; house rules are fixed now"), game=game.name)
    check_missed_turn_rule(rule)
    if rule != game.missed_turn_rule:
        old, game.missed_turn_rule = game.missed_turn_rule, rule
        audit(game, actor, "set_missed_turn_rule", old=old, new=rule)
    db.session.commit()


def pause_game(game: Game, *, actor: str, now: datetime | None = None) -> None:
    """Stop the clock: no turns, no resolution, until resume."""
    if game.state != "running":
        raise WrongState(N_("'{game}' is not running (state: {state})"), game=game.name,
                         state=game.state)
    game.state, game.paused_at = "paused", now or utcnow()
    audit(game, actor, "pause_game")
    db.session.commit()


def resume_game(game: Game, *, actor: str, now: datetime | None = None) -> Round:
    """Restart the clock; the deadline moves on by the length of the pause."""
    now = now or utcnow()
    if game.state != "paused":
        raise WrongState(N_("'{game}' is not paused"), game=game.name)
    round_ = _open_round(game)
    pause = now - game.paused_at
    round_.deadline += pause
    game.state, game.paused_at = "running", None
    audit(game, actor, "resume_game", paused_for=pause, deadline=round_.deadline)
    events.deadline_moved.send(game, round_=round_, why="resumed")
    db.session.commit()
    return round_


def enter_turn(player: Player, text: str, *, actor: str, now: datetime | None = None,
               round_number: int | None = None):
    """A turn the GM received on paper or by phone: audited, and the player is told.

    ``round_number``, if given, is the round the turn is meant for (see submit_turn).
    """
    sub = turns.submit_turn(player, text, channel="gm", entered_by=actor, now=now,
                            round_number=round_number)
    audit(player.game, actor, "enter_turn", player=player.name, version=sub.version.id)
    db.session.commit()
    return sub


def change_email(player: Player, email: str, *, actor: str) -> None:
    email = email.strip()
    if not EMAIL_PATTERN.match(email):
        raise Invalid(N_("{address} is not an email address (like name@example.org)"),
                      address=repr(email))
    if any(p.email.lower() == email.lower() for p in player.game.players if p is not player):
        raise Invalid(N_("{address} already plays in '{game}'"), address=email,
                      game=player.game.name)
    old, player.email = player.email, email
    retire_old_address(player, old)
    audit(player.game, actor, "change_email", player=player.name, old=old, new=email)
    db.session.commit()


def retire_old_address(player: Player, old_email: str) -> None:
    """Whatever the old address held of this player stops working (the caller commits).

    Its reply keys and feed links (a new key generation), the player's API
    tokens, sessions opened by the player's invitation, and, if the old
    address plays nowhere else, its sessions. Links mailed to the old address
    for this player are refused when used (services.auth.redeem_token).
    """
    now = utcnow()
    player.key_generation = (player.key_generation or 0) + 1
    db.session.execute(update(ApiToken).where(
        ApiToken.player_id == player.id, ApiToken.revoked_at.is_(None)).values(revoked_at=now))
    sessions.end_for_player(player, old_email, now)


def invitation_link(player: Player, *, actor: str, mail_id: int | None = None) -> str:
    """A fresh invitation link for the GM to forward by hand; audited.

    It opens that one player in that one game and nothing else: never a
    session for the address's other games or its GM role.
    """
    token = auth.issue_token(player.email, purpose="invitation", player=player)
    audit(player.game, actor, "forward_invitation", player=player.name, mail=mail_id)
    db.session.commit()
    return auth.sign_in_url(token)


def view_distribution(game: Game, *, actor: str) -> tuple[str, str]:
    """The secret, for the GM only; every look is audited."""
    if game.secret is None:
        raise WrongState(N_("'{game}' has not been dealt yet"), game=game.name)
    audit(game, actor, "view_distribution")
    db.session.commit()
    return game.secret.distribution, game.secret.salt
