"""The leaderboard: everyone's rating from rated games, and each person's history.

Readable by anyone, like the archive (services/ratings.py says how ratings are
worked out); a person who hides themselves in their settings is not listed
and their page is a 404. The history names only games of the public archive.
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from ..services import leaderboard, ratings
from .archive import MAX_PAGE, shared
from .inputs import whole_number
from .session import current_language

bp = Blueprint("leaderboard", __name__, url_prefix="/leaderboard")
PER_PAGE = 50


@bp.get("")
def index():
    """Everyone rated, highest first (the ordinal: mu - 3 sigma), paged."""
    page = whole_number(request.args, "page", 1, high=MAX_PAGE)
    rows, total = leaderboard.leaderboard(page, PER_PAGE, current_language())
    pages = max(1, -(-total // PER_PAGE))
    return shared(render_template("web/leaderboard/index.html", rows=rows, total=total,
                                  page=page, pages=pages, model=ratings.MODEL_NAME))


@bp.get("/<int:profile_id>")
def person(profile_id: int):
    """One person's rating and its history, game by game (newest first)."""
    found = leaderboard.person(profile_id, current_language())
    if found is None:
        abort(404)
    standing, history = found
    return shared(render_template("web/leaderboard/person.html", standing=standing,
                                  history=history))
