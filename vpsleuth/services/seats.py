"""Substitutes: the GM hands a seat to a newcomer (RULES.md 8, "Decision (substitutes)").

The seat is the same Player row, so its points, questions and results stay
with it; only who holds it changes. The newcomer plays from the next open
round: the open round itself if the seat has sent no turn in it yet, else the
round after (the turn standing then counts for that round, and a turn the
newcomer sends for it is refused: services/turns.holds_from).

The old address loses the game at once, as when an address changes
(services/gm.retire_old_address): reply keys and feed links (a new key
generation), the seat's API tokens and sessions; its sign-in links for the seat
are deleted. What was the old holder's leaves the seat with them (_leave_with):
their notebook is kept for their address (the export of their data holds it;
the newcomer starts with an empty one), their mails stay the game's but not the
seat's, their absences go. The reports show the seat under the newcomer's name
with the round they hold it from (``labelled``).
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import delete, func, select, update

from ..extensions import db
from ..i18n import N_, translate
from ..models import (
    Absence,
    AuditEntry,
    Game,
    InboundMessage,
    LoginToken,
    OutboxMessage,
    Player,
    PlayerNotebook,
    SeatChange,
    TurnVersion,
    utcnow,
)
from . import auth, board, events
from .errors import Invalid, WrongState
from .games import audit, check_new_player
from .gm import retire_old_address
from .leaving import lock_seat

REMOVED = "(address removed)"  # as services/leaving.py writes it
NAME_REMOVED = "(name removed)"
OTHER = "(another person)"
FROM_ROUND = N_("{name} (from round {round})")


def next_round_of(player: Player) -> int:
    """The round a newcomer would hold the seat from if it were handed on now."""
    open_ = player.game.open_round
    if open_ is None:  # in setup: round 1 (a finished game hands nothing on)
        return 1
    sent = db.session.scalar(select(TurnVersion.id).where(
        TurnVersion.player_id == player.id, TurnVersion.round_id == open_.id,
        TurnVersion.status == "accepted").limit(1))
    return open_.number + 1 if sent else open_.number


def holders_from(game: Game) -> dict[int, int]:
    """For each seat of the game that changed hands: the round its holder plays from."""
    rows = db.session.execute(select(SeatChange.player_id, func.max(SeatChange.from_round))
                              .join(Player, Player.id == SeatChange.player_id)
                              .where(Player.game_id == game.id)
                              .group_by(SeatChange.player_id)).all()
    return {player_id: number for player_id, number in rows}


def labelled(names: dict[int, str], game: Game, lang: str,
             changed: dict[int, int] | None = None) -> dict[int, str]:
    """The names as reports show them: a seat handed on after round 1 says from when.

    ``changed``: holders_from(game), if the caller has it already.
    """
    template = translate(lang, FROM_ROUND)
    for player_id, number in (holders_from(game) if changed is None else changed).items():
        if number > 1 and player_id in names:
            names[player_id] = template.format(name=names[player_id], round=number)
    return names


def _checked(game: Game, player: Player, name: str, email: str, language: str) -> None:
    if game.practice:
        raise WrongState(N_("'{game}' is a practice game; its seat cannot be handed on"),
                         game=game.name)
    if game.state == "finished":
        raise WrongState(N_("'{game}' has ended; its seats cannot be handed on"),
                         game=game.name)
    if player.is_bot:
        raise WrongState(N_("{name} is a computer player; only a person's seat is handed on"),
                         name=repr(player.name))
    if not player.active or player.left_at is not None:
        raise WrongState(N_("{name} has been withdrawn; a withdrawn seat is not handed on"),
                         name=repr(player.name))
    # The old holder's name too: a seat's posts are told apart by the name they were
    # posted under (services/board.py), so the newcomer's name must differ from it.
    check_new_player(game, name, email, language)


def preview(game: Game, player: Player, new_name: str, new_email: str,
            language: str | None = None) -> int:
    """Check a hand-over as replace_player would, changing nothing; the round it is from.

    For a page that asks the GM to confirm first.
    """
    if player.game_id != game.id:
        raise Invalid(N_("no player {ref} in game '{game}'"), ref=repr(player.name),
                      game=game.name)
    _checked(game, player, new_name.strip(), new_email.strip(), language or game.language)
    from_round = next_round_of(player)
    if game.state != "setup" and from_round > game.rounds:
        raise WrongState(N_("{name} has sent the turn of the last round already; there is no "
                            "round left to hand on"), name=repr(player.name))
    return from_round


def replace_player(game: Game, player: Player, new_name: str, new_email: str, *,
                   actor: str, now: datetime | None = None,
                   language: str | None = None) -> SeatChange:
    """Hand ``player``'s seat to ``new_name`` at ``new_email``; commits.

    Refused (WrongState) in a practice or finished game, for a computer player
    or a withdrawn seat; refused (Invalid) for a bad name or address, or one
    that plays in the game already (the old holder's own address too). The
    newcomer is invited and the old address told (events.seat_handed_over).
    """
    now = now or utcnow()
    new_name, new_email = new_name.strip(), new_email.strip()
    language = language or game.language
    # A turn of the old holder arriving meanwhile either counts before or is refused after.
    lock_seat(player)
    from_round = preview(game, player, new_name, new_email, language)
    old_name, old_email, old_language = player.name, player.email, player.language
    change = SeatChange(player_id=player.id, from_round=from_round, old_name=old_name,
                        old_email=old_email, new_name=new_name, at=now, actor=actor)
    db.session.add(change)
    _leave_with(player, old_email, old_name, game)
    player.name, player.email, player.language = new_name, new_email, language
    # What the old holder chose for themselves is not the newcomer's.
    player.display_name, player.timezone = None, None
    player.wants_round_mail = player.wants_reminders = player.wants_confirmations = True
    player.joined_at, player.first_signed_in_at = now, None
    player.board_mail, player.board_told_post_id = "digest", None
    db.session.flush()  # the new address stands before the old one's sessions are ended
    retire_old_address(player, old_email)
    audit(game, actor, "replace_player", player=new_name, old=old_name, old_email=old_email,
          email=new_email, from_round=from_round)
    events.seat_handed_over.send(player, change=change, old_language=old_language,
                                 token=auth.issue_token(new_email, now, purpose="invitation",
                                                        player=player))
    db.session.commit()
    return change


def _leave_with(player: Player, old_email: str, old_name: str, game: Game) -> None:
    """What was the old holder's, not the seat's, leaves the seat with them.

    Their notebook is kept for their address; the mails to and from it stay the game's
    but no longer the seat's (the newcomer's data never holds them, the old holder's
    does, by address); their sign-in links for the seat go (void since the address
    changed), as do their absences; their turns stay the seat's history, entered by
    their name, not address.
    """
    address = old_email.lower()
    db.session.execute(update(PlayerNotebook).where(PlayerNotebook.player_id == player.id)
                       .values(player_id=None, kept_by=address, kept_game_id=game.id))
    db.session.execute(update(OutboxMessage).where(
        OutboxMessage.player_id == player.id).values(player_id=None))
    db.session.execute(update(InboundMessage).where(
        InboundMessage.player_id == player.id).values(player_id=None))
    db.session.execute(delete(LoginToken).where(LoginToken.player_id == player.id))
    # Their absences were theirs (the notes for the GM too): the newcomer is not away.
    db.session.execute(delete(Absence).where(Absence.player_id == player.id))
    db.session.execute(update(TurnVersion).where(
        TurnVersion.player_id == player.id, func.lower(TurnVersion.entered_by) == address)
        .values(entered_by=old_name))


def forget(email: str, *, seats: list[Player], whole: bool = True) -> None:
    """events.person_leaving: a person who leaves takes their name and address out of the
    seat changes (as the seat's old or new holder) and their kept notebooks with them."""
    address = email.strip().lower()
    board.forget_handed_on(address)
    for change in db.session.scalars(select(SeatChange).where(
            func.lower(SeatChange.old_email) == address)):
        _forget_holder(change)
    db.session.execute(update(SeatChange).where(func.lower(SeatChange.old_email) == address)
                       .values(old_email=REMOVED, old_name=NAME_REMOVED))
    ids = [p.id for p in seats]
    if ids:
        db.session.execute(update(SeatChange).where(SeatChange.player_id.in_(ids))
                           .values(new_name=NAME_REMOVED))
    db.session.execute(delete(PlayerNotebook).where(PlayerNotebook.kept_by == address))


def _forget_holder(change: SeatChange) -> None:
    """A seat's old holder leaves: their name goes from the game's audit log, and the texts
    of the turns they sent for the seat go, as for a seat of their own (services/leaving.py);
    what the turns stood for and scored stays the seat's."""
    since = db.session.scalar(select(func.max(SeatChange.at)).where(
        SeatChange.player_id == change.player_id, SeatChange.at < change.at))
    theirs = [TurnVersion.player_id == change.player_id, TurnVersion.received_at < change.at]
    if since is not None:
        theirs.append(TurnVersion.received_at >= since)
    db.session.execute(update(TurnVersion).where(*theirs)
                       .values(text="", errors="", entered_by=NAME_REMOVED))
    for entry in db.session.scalars(select(AuditEntry).where(
            AuditEntry.game_id == change.player.game_id)):
        try:
            detail = json.loads(entry.detail or "{}")
        except ValueError:
            continue
        entry.detail = json.dumps(_without(detail, change.old_name), sort_keys=True)


def _without(value, name: str):
    """A JSON value with every string that is exactly ``name`` replaced."""
    if isinstance(value, dict):
        return {k: _without(v, name) for k, v in value.items()}
    if isinstance(value, list):
        return [_without(v, name) for v in value]
    return NAME_REMOVED if value == name else value


def export(email: str, *, seats: list[Player], whole: bool) -> dict[str, list[dict]]:
    """events.personal_data_asked: the seat changes about the person.

    Those of a seat they held and handed on, whole (the account's export); those of
    the seats they hold, without the old holder's name and address.
    """
    address = email.strip().lower()
    ids = [p.id for p in seats]
    rows: list[dict] = []
    if whole:
        rows += [_row(c) for c in db.session.scalars(select(SeatChange).where(
            func.lower(SeatChange.old_email) == address).order_by(SeatChange.id))]
    if ids:
        rows += [{**_row(c), "old_name": OTHER, "old_email": OTHER}
                 for c in db.session.scalars(select(SeatChange).where(
                     SeatChange.player_id.in_(ids)).order_by(SeatChange.id))
                 if c.old_email.lower() != address]
    return {"seat_change": rows}


def _row(change: SeatChange) -> dict:
    return {"id": change.id, "player_id": change.player_id, "from_round": change.from_round,
            "old_name": change.old_name, "old_email": change.old_email,
            "new_name": change.new_name, "at": change.at.isoformat(), "actor": change.actor}
