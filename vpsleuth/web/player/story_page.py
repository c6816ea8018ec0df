"""The game told afterwards: what the public record proved, as a page (issue 13, 2)."""

from __future__ import annotations

from flask import abort, jsonify, render_template

from ...rules import GEM_BY_CODE, Question
from ...services import stories, story
from ..costs import spent
from ..session import current_language, current_viewer, login_required
from ..story_chart import deals_chart
from . import bp
from .common import member_game


def gem_name(code: str, lang: str) -> str:
    return GEM_BY_CODE[code].name(lang)


def question_text(codes: str, lang: str) -> str:
    return Question.from_codes(codes).text(lang)


def _readable(game_id: int):
    game, player = member_game(game_id)
    if not story.may_read(current_viewer(), game):
        abort(404)
    return game, player


@bp.get("/games/<int:game_id>/story")
@login_required
@spent("story", "COSTLY_PER_MINUTE")
def story_page(game_id: int):
    """The game told afterwards: for its GM at any time, for its players after the end.

    Read as stored: the tell-stories job computes it once (services/stories.py);
    until then the page says it is being told and looks again by itself.
    """
    game, player = _readable(game_id)
    lang = current_language()
    state, told = stories.current(game)
    if told is None:
        return render_template("web/player/story_pending.html", game=game, player=player,
                               state=state), 202 if state != "failed" else 200
    charts = None
    if told["rounds"]:
        charts = (deals_chart(told, lang),
                  deals_chart(told, lang, chart_id="story-chart-narrow", width=360,
                              plot_height=220))
    return render_template("web/player/story.html", game=game, player=player, story=told,
                           charts=charts, gem_name=lambda c: gem_name(c, lang),
                           question_text=lambda c: question_text(c, lang))


@bp.get("/games/<int:game_id>/story/state")
@login_required
def story_state(game_id: int):
    """Whether the story is told yet, for the waiting page's script (no story in it)."""
    game, _ = _readable(game_id)
    row = stories.find(game)
    return jsonify(state=row.state if row is not None else "queued")
