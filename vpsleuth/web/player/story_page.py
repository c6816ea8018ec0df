"""The game told afterwards: what the public record proved, as a page (issue 13, 2)."""

from __future__ import annotations

from flask import abort, render_template

from ...i18n import translate
from ...rules import GEM_BY_CODE, Question
from ...services import story
from ..charts import standings_chart
from ..session import current_language, current_viewer, login_required
from . import bp
from .common import member_game


def bits_chart(told: dict, lang: str, *, chart_id: str = "story-chart", width: int = 720,
               plot_height: int = 300) -> str:
    """An SVG line chart of the bits left after each round (the secret shrinking)."""
    t = lambda text: translate(lang, text)  # noqa: E731
    left = [r["bits_left"] for r in told["rounds"]]
    desc = t("Bits of the deal still secret after rounds 1 to {}, of {} at the start.").format(
        len(left), f"{told['start_bits']:.1f}") + " " + "; ".join(
        f"{t('Round')} {i}: {b:.1f}" for i, b in enumerate(left, start=1))
    return standings_chart({t("Bits left"): [round(b, 1) for b in left]},
                           title=t("The secret shrinking: bits left after each round"),
                           desc=desc, round_label=t("Round"), points_label=t("Bits left"),
                           chart_id=chart_id, width=width, plot_height=plot_height)


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
        charts = (bits_chart(told, lang),
                  bits_chart(told, lang, chart_id="story-chart-narrow", width=360,
                             plot_height=220))
    return render_template("web/player/story.html", game=game, player=player, story=told,
                           charts=charts, gem_name=lambda c: gem_name(c, lang),
                           question_text=lambda c: question_text(c, lang))
