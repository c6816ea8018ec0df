"""The game told afterwards: what the public record proved, as a page (issue 13, 2)."""

from __future__ import annotations

from flask import abort, render_template

from ...rules import GEM_BY_CODE, Question
from ...services import story
from ..session import current_language, current_viewer, login_required
from ..story_chart import deals_chart
from . import bp
from .common import member_game


def gem_name(code: str, lang: str) -> str:
    return GEM_BY_CODE[code].name(lang)


def question_text(codes: str, lang: str) -> str:
    return Question.from_codes(codes).text(lang)


@bp.get("/games/<int:game_id>/story")
@login_required
def story_page(game_id: int):
    """The game told afterwards: for its GM at any time, for its players after the end."""
    game, player = member_game(game_id)
    if not story.may_read(current_viewer(), game):
        abort(404)
    lang = current_language()
    told = story.tell(game, with_tips=True)
    charts = None
    if told["rounds"]:
        charts = (deals_chart(told, lang),
                  deals_chart(told, lang, chart_id="story-chart-narrow", width=360,
                              plot_height=220))
    return render_template("web/player/story.html", game=game, player=player, story=told,
                           charts=charts, gem_name=lambda c: gem_name(c, lang),
                           question_text=lambda c: question_text(c, lang))
