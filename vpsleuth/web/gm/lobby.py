"""Open games on the GM's side: list a game and set its player limit, decide requests.

Only the GM of the game reaches these (gm_game: 404 for everybody else), and
only they see its requests, on the game's page (web/gm/_join_requests.html).
"""

from __future__ import annotations

from flask import redirect, request, url_for

from ...i18n import N_
from ...services import lobby
from ...services.errors import ServiceError
from . import bp
from .forms import InviteForm
from .game_page import game_page
from .helpers import LABELS, actor, gm_game, refused, say

LABELS["action"].update({"set_listing": N_("open game listing changed"),
                         "accept_join": N_("request to join accepted"),
                         "decline_join": N_("request to join declined")})
LABELS["request"] = {"pending": N_("waiting"), "accepted": N_("accepted"),
                     "declined": N_("declined")}


def listing_input(form=None) -> tuple[bool, int | None]:
    """(open, player limit) from the form's ``open_to_join`` and ``max_players`` fields.

    Raises ValueError with a message for the GM when the limit is not a whole number.
    """
    form = request.form if form is None else form
    text = (form.get("max_players") or "").strip()
    try:
        limit = int(text) if text else None
    except ValueError:
        raise ValueError(N_("The player limit is a whole number, or empty for none.")) from None
    if limit is not None and not 1 <= limit <= lobby.MAX_PLAYERS:
        raise ValueError(N_("The player limit is 1 to 1000, or empty for none."))
    return form.get("open_to_join") in ("y", "on", "1", "true"), limit


@bp.context_processor
def join_request_helpers() -> dict:
    return {"join_requests": lobby.requests_for, "game_is_full": lobby.is_full,
            "pending_requests": lobby.pending_count}


def _game_page(game, status: int):
    """The game's page again, with what went wrong flashed."""
    return game_page(game, InviteForm(language=game.language), status)


def _back(game_id: int):
    return redirect(url_for("gm.game", game_id=game_id) + "#open-game")


@bp.post("/games/<int:game_id>/listing")
def listing(game_id: int):
    """List the game as open (or not) and set its player limit."""
    game = gm_game(game_id)
    try:
        open_to_join, limit = listing_input()
        lobby.set_listing(game, open_to_join=open_to_join, max_players=limit, actor=actor())
    except ValueError as exc:
        say(str(exc), "error")
        return _game_page(game, 400)
    except ServiceError as exc:
        return _game_page(game, refused(exc))
    say(N_("Saved: the game is listed as open.") if open_to_join else
        N_("Saved: the game is not listed as open."))
    return _back(game.id)


@bp.post("/games/<int:game_id>/requests/<int:request_id>/accept")
def accept_request(game_id: int, request_id: int):
    """Add the requester as a player; the normal invitation goes to the outbox."""
    game = gm_game(game_id)
    try:
        player = lobby.accept(game, request_id, name=request.form.get("name") or None,
                              actor=actor())
    except ServiceError as exc:
        return _game_page(game, refused(exc))
    say(N_("{name} joins the game; the invitation is in the outbox."), name=player.name)
    return _back(game.id)


@bp.post("/games/<int:game_id>/requests/<int:request_id>/decline")
def decline_request(game_id: int, request_id: int):
    """Decline; the requester is told by mail."""
    game = gm_game(game_id)
    try:
        declined = lobby.decline(game, request_id, actor=actor())
    except ServiceError as exc:
        return _game_page(game, refused(exc))
    say(N_("The request of {name} is declined; they are told by mail."), name=declined.name)
    return _back(game.id)
