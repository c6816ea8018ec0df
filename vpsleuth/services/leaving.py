"""Deleting an account: the right to erasure (issue 22, 3).

What becomes of the person's seats:

* in a running or paused game they are withdrawn first (the page warns), in
  the same locks a turn takes (the round, then the seat), so a turn being
  saved at that moment either counted before or is refused after;
* in every game the seat stays with its points, questions and results under
  "former player N": no name, no address, no display name; their turns' texts,
  notebook, mails (sent to them, received from them, or naming their address),
  join requests, sign-in links, sessions, API tokens and counted requests go;
  feed links and reply keys stop (a new key generation, and a new address);
* audit entries keep what happened, with the address and the seat's name
  replaced; the GM finds "a player left" in each game's log;
* the profile and rating go; every rating is recomputed without linking the
  person's seats (each counts as a newcomer), so others' ratings may move a
  little, and ``ratings rebuild`` still agrees.

A game master who leaves names a successor (another GM of this instance), who
takes their games that have not ended; without one those games go on without
a GM (rounds resolve at their deadlines; the operator may hand them to a GM
with ``vpsleuth game hand-over``). Their finished games stay, with no GM.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import delete, func, or_, select, update

from ..extensions import db
from ..i18n import N_
from ..models import (
    ApiToken,
    AuditEntry,
    Game,
    GameMaster,
    GameStory,
    InboundMessage,
    JoinRequest,
    LoginToken,
    MailBody,
    OutboxMessage,
    Player,
    PlayerNotebook,
    Profile,
    Rating,
    RatingChange,
    Round,
    TurnVersion,
    WebSession,
    utcnow,
)
from . import events, limits, ratings
from .access import Forbidden, Viewer
from .errors import Invalid, NotFound
from .games import audit
from .personal_data import seats_of

REMOVED = "(address removed)"
LEFT_ACTOR = "a person who left"
LEFT_DOMAIN = "left.invalid"  # reserved (RFC 2606): nothing is ever sent there


class OneSeatOnly(Forbidden):
    """A session opened by an invitation link, or a player token, acts for one seat."""


@dataclass
class Left:
    """What a deletion did, for the page that confirms it."""

    withdrawn: list[str] = field(default_factory=list)  # running games left
    kept: list[str] = field(default_factory=list)  # games whose seat stays, anonymous
    handed_over: list[str] = field(default_factory=list)
    without_gm: list[str] = field(default_factory=list)


def successors(email: str) -> list[GameMaster]:
    """The other GMs of this instance, who may take a leaving GM's games."""
    return list(db.session.scalars(select(GameMaster).where(
        func.lower(GameMaster.email) != email.strip().lower()).order_by(GameMaster.name)))


def lock_seat(player: Player) -> None:
    """The locks a turn takes, in its order: the open round, then the seat (also taken
    when a seat is handed on, services/seats.py)."""
    open_round = player.game.open_round
    if open_round is not None:
        db.session.execute(update(Round).where(Round.id == open_round.id,
                                               Round.state == "open")
                           .values(state="open").execution_options(synchronize_session=False))
    db.session.execute(select(Player.id).where(Player.id == player.id).with_for_update())


def _former(player: Player, now: datetime) -> str:
    """Turn the seat into "former player N"; returns the name it had."""
    game = player.game
    taken = {p.name.casefold() for p in game.players}
    number = max((p.former_number or 0 for p in game.players), default=0) + 1
    while f"former player {number}".casefold() in taken:
        number += 1
    old = player.name
    if player.active:
        player.active, player.withdrawn_at = False, now
    player.name, player.former_number, player.left_at = f"former player {number}", number, now
    player.email = f"former-{player.id}@{LEFT_DOMAIN}"
    player.display_name = player.timezone = None
    player.wants_round_mail = player.wants_reminders = player.wants_confirmations = False
    player.key_generation = (player.key_generation or 0) + 1
    audit(game, "system", "player_left", former=number)
    return old


def _scrub_text(text: str, email: str, names: dict[str, str]) -> str:
    return re.sub(re.escape(email), REMOVED, text, flags=re.IGNORECASE) if email else text


def _rewrite(value, names: dict[str, str], email: str):
    """A JSON value with the leaver's seat names and address replaced."""
    if isinstance(value, dict):
        return {k: _rewrite(v, names, email) for k, v in value.items()}
    if isinstance(value, list):
        return [_rewrite(v, names, email) for v in value]
    if isinstance(value, str):
        return names.get(value, _scrub_text(value, email, names))
    return value


def _scrub_audit(email: str, renamed: dict[int, dict[str, str]]) -> None:
    like = f"%{email}%"
    games = list(renamed)
    rows = db.session.scalars(select(AuditEntry).where(or_(
        func.lower(AuditEntry.actor).like(like), func.lower(AuditEntry.detail).like(like),
        AuditEntry.game_id.in_(games)))).all()
    for entry in rows:
        names = renamed.get(entry.game_id, {})
        if email in entry.actor.lower():
            entry.actor = LEFT_ACTOR
        try:
            detail = json.loads(entry.detail or "{}")
        except ValueError:
            entry.detail = _scrub_text(entry.detail, email, names)
            continue
        entry.detail = json.dumps(_rewrite(detail, names, email), sort_keys=True)


def _scrub_stories(renamed: dict[int, dict[str, str]]) -> None:
    for story in db.session.scalars(select(GameStory).where(
            GameStory.game_id.in_(list(renamed)), GameStory.data.is_not(None))):
        story.data = json.dumps(_rewrite(json.loads(story.data), renamed[story.game_id], ""))


def _mails(email: str, ids: list[int]) -> None:
    """Mails to the person, from them, or naming their address go, bodies with them."""
    like = f"%{email}%"
    bodies = select(MailBody.id).where(or_(func.lower(MailBody.text).like(like),
                                           func.lower(MailBody.html).like(like)))
    doomed = select(OutboxMessage.id).where(or_(
        OutboxMessage.player_id.in_(ids), func.lower(OutboxMessage.to_addr) == email,
        OutboxMessage.body_id.in_(bodies)))
    body_ids = set(db.session.scalars(select(OutboxMessage.body_id).where(
        OutboxMessage.id.in_(doomed))))
    db.session.execute(delete(OutboxMessage).where(OutboxMessage.id.in_(
        list(db.session.scalars(doomed)))))
    still = set(db.session.scalars(select(OutboxMessage.body_id).where(
        OutboxMessage.body_id.in_(body_ids))))
    db.session.execute(delete(MailBody).where(MailBody.id.in_(body_ids - still)))
    db.session.execute(delete(InboundMessage).where(or_(
        InboundMessage.player_id.in_(ids), func.lower(InboundMessage.from_addr).like(like))))


def _game_master(gm: GameMaster, successor: GameMaster | None, left: Left) -> None:
    for game in db.session.scalars(select(Game).where(Game.game_master_id == gm.id)):
        if game.state == "finished":
            game.game_master_id = None
        elif successor is not None:
            game.game_master_id = successor.id
            audit(game, "system", "handed_over", to=successor.name)
            left.handed_over.append(game.name)
        else:
            game.game_master_id = None
            audit(game, "system", "game_master_left")
            left.without_gm.append(game.name)
    db.session.execute(delete(ApiToken).where(ApiToken.game_master_id == gm.id))
    db.session.delete(gm)


def delete_account(viewer: Viewer, *, successor_id: int | None = None,
                   now: datetime | None = None) -> Left:
    """Delete everything about the viewer's address (see the module's docstring)."""
    if viewer.player_id is not None:
        raise OneSeatOnly(N_("this session acts for one game only: sign in with a link sent "
                             "to your address to delete your account"))
    now = now or utcnow()
    email = viewer.email
    gm = db.session.scalar(select(GameMaster).where(func.lower(GameMaster.email) == email))
    successor = None
    if successor_id is not None:
        successor = db.session.get(GameMaster, successor_id)
        if successor is None or successor is gm:
            raise NotFound(N_("no other game master {id} here to take your games"),
                           id=successor_id)
    left = Left()
    seats = seats_of(viewer)
    for p in sorted(seats, key=lambda p: (p.game_id, p.id)):
        lock_seat(p)
    events.person_leaving.send(email, seats=seats, whole=True)
    ids = [p.id for p in seats]
    renamed: dict[int, dict[str, str]] = {}
    for p in seats:
        (left.withdrawn if p.game.state in ("running", "paused") and p.active
         else left.kept).append(p.game.name)
        old = _former(p, now)
        renamed[p.game_id] = {old: p.name}
    db.session.flush()
    for p in seats:
        db.session.execute(update(TurnVersion).where(TurnVersion.player_id == p.id)
                           .values(text="", errors="", entered_by=p.name))
    # Turns the person entered for others (as their GM): who entered them is kept unnamed.
    db.session.execute(update(TurnVersion).where(
        func.lower(TurnVersion.entered_by).like(f"%{email}%")).values(entered_by=LEFT_ACTOR))
    db.session.execute(delete(PlayerNotebook).where(PlayerNotebook.player_id.in_(ids)))
    db.session.execute(delete(ApiToken).where(ApiToken.player_id.in_(ids)))
    db.session.execute(delete(WebSession).where(or_(
        WebSession.player_id.in_(ids), func.lower(WebSession.email) == email)))
    db.session.execute(delete(LoginToken).where(or_(
        LoginToken.player_id.in_(ids), func.lower(LoginToken.email) == email)))
    db.session.execute(delete(JoinRequest).where(or_(
        JoinRequest.player_id.in_(ids), func.lower(JoinRequest.email) == email)))
    _mails(email, ids)
    limits.forget_key(email)
    if gm is not None:
        _game_master(gm, successor, left)
    _scrub_audit(email, renamed)
    _scrub_stories(renamed)
    profile = db.session.scalar(select(Profile).where(Profile.email == email))
    rated = False
    if profile is not None:
        rated = db.session.execute(update(RatingChange).where(
            RatingChange.profile_id == profile.id).values(profile_id=None)).rowcount > 0
        db.session.execute(delete(Rating).where(Rating.profile_id == profile.id))
        db.session.delete(profile)
    db.session.flush()
    if rated:  # the person's seats no longer link: every rating as if they were newcomers
        ratings.store(ratings.recompute())
    db.session.commit()
    return left


def hand_over(game: Game, email: str, *, actor: str) -> GameMaster:
    """Give ``game`` to the GM account of ``email`` (a game left without a GM, say); audited."""
    gm = db.session.scalar(select(GameMaster).where(
        func.lower(GameMaster.email) == email.strip().lower()))
    if gm is None:
        raise Invalid(N_("{address} has no game master account here"), address=email)
    if game.practice:
        raise Invalid(N_("a practice game has no game master"))
    game.game_master_id = gm.id
    audit(game, actor, "handed_over", to=gm.name)
    db.session.commit()
    return gm
