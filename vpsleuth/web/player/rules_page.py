"""The rules as one game plays them: its house rules beside the standard game's, then
the rulebook. Only the game's players and its GM see it (member_game: 404 for others)."""

from __future__ import annotations

from flask import render_template

from ...i18n import house_rules
from .. import docs
from ..session import current_language, login_required
from . import bp
from .common import member_game


@bp.get("/games/<int:game_id>/rules")
@login_required
def game_rules(game_id: int):
    """This game's house rules beside the standard ones, and the full rules below."""
    game, player = member_game(game_id)
    lang = current_language()
    rows = house_rules.table(game, lang)
    _, body = docs.render("rules", lang, shift=1)
    return render_template("web/player/rules.html", game=game, player=player, rows=rows,
                           changed=sum(row.changed for row in rows), body=body)
