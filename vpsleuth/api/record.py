"""A person's data and the community's ratings, by API.

``GET /me/export``: everything stored about the token's owner. A GM token acts
for the GM's account (the address: every seat, the account, the profile); a
player token acts for one player in one game, so its export holds that seat
only (services/personal_data.py). ``POST /me/delete`` deletes the account of
a GM token's address; a player token is refused (403), as a session opened by
an invitation link is: deleting everything an address holds takes that
address's own sign-in. The ratings are public, like the leaderboard page.
"""

from __future__ import annotations

from flask import request

from ..i18n import N_
from ..services import leaderboard as board
from ..services import leaving, personal_data, ratings
from ..services.access import Viewer
from ..services.errors import NotFound
from . import bp, inputs
from .auth import PUBLIC_ENDPOINTS, caller
from .errors import BadInput
from .serialize import iso

PER_PAGE = 50
PUBLIC_ENDPOINTS.update({"api.leaderboard", "api.rating_history"})


def _viewer() -> Viewer:
    who = caller()
    if who.player is not None:  # one seat, whatever else its address holds
        return Viewer(who.viewer.email, None, who.player.id)
    return who.viewer


@bp.get("/me/export")
def export_me():
    """Everything stored about the caller (a player token: its one seat), as JSON."""
    return personal_data.export(_viewer())


@bp.post("/me/delete")
def delete_me():
    """Delete the account of the caller's address (GM tokens only); body: confirm yes."""
    viewer = _viewer()
    if viewer.player_id is not None:
        raise leaving.OneSeatOnly(N_("a player token acts for one game: delete your account "
                                     "on the settings page, signed in with a link sent to "
                                     "your address"))
    body = inputs.json_object({"confirm", "successor_id"}, {"confirm"})
    if body["confirm"] != "yes":
        raise BadInput("confirm", N_("must be yes: deleting an account cannot be undone"))
    successor = (inputs.integer(body["successor_id"], "successor_id", 1, inputs.MAX_ID)
                 if "successor_id" in body else None)
    left = leaving.delete_account(viewer, successor_id=successor)
    return {"deleted": True, "withdrawn_from": left.withdrawn, "seats_kept": left.kept,
            "handed_over": left.handed_over, "without_game_master": left.without_gm}


@bp.get("/ratings")
def leaderboard():
    """Everyone rated, highest ordinal first; ``page`` from 1 (50 a page). No token needed."""
    page = _page()
    rows, total = board.leaderboard(page, PER_PAGE)
    return {"model": ratings.MODEL_NAME, "page": page, "per_page": PER_PAGE, "total": total,
            "players": [{"profile_id": r.profile_id, "name": r.name, "place": r.place,
                         "rating": r.ordinal, "games": r.games} for r in rows]}


def _page() -> int:
    raw = request.args.get("page", "1")
    if not raw.isdigit() or not 1 <= int(raw) <= 10_000:
        raise BadInput("page", N_("must be a whole number from {low} to {high}"), low=1,
                       high=10_000)
    return int(raw)


@bp.get("/ratings/<int:profile_id>")
def rating_history(profile_id: int):
    """One listed person's rating and its history, newest first. No token needed."""
    found = board.person(profile_id) if profile_id <= inputs.MAX_ID else None
    if found is None:
        raise NotFound(N_("nobody {id} on the leaderboard"), id=profile_id)
    standing, history = found
    return {"profile_id": standing.profile_id, "name": standing.name,
            "rating": standing.ordinal, "games": standing.games, "place": standing.place,
            "history": [{"game_id": h["game_id"], "game": h["game"], "at": iso(h["at"]),
                         "rank": h["rank"], "players": h["players"], "rating": h["ordinal"],
                         "change": h["change"]} for h in history]}
