"""A game's overview and the information sheet."""

from __future__ import annotations

from flask import render_template, url_for

from ...services import notebook as notebooks
from ...services import outcome, reports, story, turns
from ...services.access import is_gm_of
from ..costs import spent
from ..feeds import feed_token
from ..glance import turn_rows
from ..session import current_language, current_viewer, login_required
from . import bp
from .common import deadline_of, member_game, player_game
from .sheet import build_sheet, gem_order


@bp.get("/games/<int:game_id>")
@login_required
def game(game_id: int):
    """The game at a glance: state, open round and deadline, the viewer's turn, links."""
    game, player = member_game(game_id)
    round_ = game.open_round if game.state in ("running", "paused") else None
    standing = turns.standing_turn(round_, player) if round_ and player else None
    feeds = None
    if player is not None:
        token = feed_token(player)
        feeds = {"atom": url_for("player.feed", game_id=game.id, token=token, _external=True),
                 "ics": url_for("player.calendar", game_id=game.id, token=token,
                                _external=True)}
    return render_template(
        "web/player/game.html", game=game, player=player, round=round_, standing=standing,
        deadline=deadline_of(round_, game, player) if round_ else None,
        resolved=reports.resolved_rounds(game), feeds=feeds,
        turns_in=turn_rows(round_, game, player) if round_ else [],
        is_gm=is_gm_of(current_viewer(), game), rules=game.ruleset,
        outcome=outcome.outcome(game, player, current_language()))


@bp.get("/games/<int:game_id>/sheet")
@login_required
@spent("sheet", "NOTEBOOK_PER_MINUTE")
def sheet(game_id: int):
    """The information sheet: all answers by placeholder and attribute, and own tips."""
    game, player = player_game(game_id)
    lang = current_language()
    return render_template("web/player/sheet.html", game=game, player=player,
                           sheet=build_sheet(game, player, lang), gems=gem_order(),
                           notebook=notebooks.read(player), aid=story.aid_places(game))
