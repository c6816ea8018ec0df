"""The mail channel listens: each service signal it answers, and the mail it queues.

Every receiver runs in the service's transaction (services/events.py) and only
queues (notify.py, lobby.py); the service commits the mails with what happened.
The receivers are module functions connected strongly (``weak=False``) and read
the app through ``current_app``, so connecting them once per process serves every
app; blinker keys receivers by identity, so ``init_app`` may run for any number
of apps and each signal still queues its mails once.
"""

from __future__ import annotations

from flask import Flask

from ..extensions import db
from ..models import BoardPost, Game, GameMaster, GameStory, JoinRequest, Player, Round
from ..rules import Turn
from ..services import events
from . import absences, board, lobby, notify, seats


def _gm_name(game: Game) -> str | None:
    """The name the invitation signs with: the game's GM account's, if it has one."""
    gm = db.session.get(GameMaster, game.game_master_id) if game.game_master_id else None
    return gm.name if gm else None


def player_invited(player: Player, *, token: str) -> None:
    notify.invitation(player, token, gm_name=_gm_name(player.game))


def round_opened(game: Game, *, round_: Round) -> None:
    notify.round_opened(game, round_)


def round_resolved(game: Game, *, round_: Round, ended: bool, report_waits: bool) -> None:
    if not report_waits:  # else it goes with the story: story_told
        notify.round_report(game, round_)


def story_told(game: Game, *, story: GameStory, round_: Round | None) -> None:
    if story.final_report and round_ is not None:  # it waited for this story (told or not)

        notify.round_report(game, round_)


def story_overdue(game: Game, *, round_: Round) -> None:
    notify.round_report(game, round_)  # the story section then only links the page


def deadline_moved(game: Game, *, round_: Round, why: str) -> None:
    notify.deadline_moved(game, round_, why)


def turn_accepted(player: Player, *, round_: Round, standing: Turn, channel: str,
                  entered_by: str, signoff: tuple[str, ...]) -> None:
    notify.turn_confirmed(player, round_, standing, channel, entered_by, signoff)


def address_change_requested(player: Player, *, new_email: str, token: str) -> None:
    notify.address_change(player, new_email, token)


def join_requested(game: Game, *, request: JoinRequest) -> None:
    lobby.join_requested(request, game)


def join_declined(game: Game, *, request: JoinRequest) -> None:
    lobby.join_declined(request, game)


def reminder_due(player: Player, *, round_: Round, hours: int) -> None:
    notify.reminder(player, round_, hours)


def board_posted(game: Game, *, post: BoardPost, announcement: bool) -> None:
    board.post_mails(game, post, announcement)


def board_digest_due(player: Player, *, posts: list[BoardPost], more: int, **_) -> None:
    board.digest(player, posts, more)


# Each signal the mail channel answers, and its receiver here.
RECEIVERS = {
    events.player_invited: player_invited,
    events.round_opened: round_opened,
    events.round_resolved: round_resolved,
    events.story_told: story_told,
    events.story_overdue: story_overdue,
    events.deadline_moved: deadline_moved,
    events.turn_accepted: turn_accepted,
    events.address_change_requested: address_change_requested,
    events.join_requested: join_requested,
    events.join_declined: join_declined,
    events.reminder_due: reminder_due,
    events.seat_handed_over: seats.seat_handed_over,
    events.board_posted: board_posted,
    events.board_digest_due: board_digest_due,
    events.absence_announced: absences.absence_announced,
}


def init_app(app: Flask) -> None:
    """Connect the mail channel to the services' signals (idempotent, for every app)."""
    for signal, receiver in RECEIVERS.items():
        signal.connect(receiver, weak=False)
