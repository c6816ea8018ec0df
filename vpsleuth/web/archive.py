"""The public archive: finished games their GM made public, for anyone, signed in or not.

Everything here is read as stored (services/archive.py) and names players by
their public names. A game that is private, still running, or does not exist
is the same 404. A page for a visitor who is not signed in may be kept by a
cache for a minute (public, max-age=60, varying by language): it is the same
for every such visitor, and a minute is as long as a game taken out of the
archive, or a player who left, may still show there. A signed-in viewer's
page names them, so it is no-store like every other page of theirs.
"""

from __future__ import annotations

from flask import Blueprint, abort, make_response, render_template, request, session

from ..i18n import house_rules, translate
from ..rules import LOCATIONS
from ..services import archive
from ..services.errors import NotFound
from .charts import standings_chart
from .inputs import whole_number
from .session import current_language, current_viewer
from .story_chart import deals_chart

bp = Blueprint("archive", __name__, url_prefix="/archive")
MAX_AGE = 60  # seconds a cache may keep a page for visitors who are not signed in
MAX_PAGE = 10_000


def shared(html: str, status: int = 200):
    """A page the same for every visitor who is not signed in: a cache may keep it briefly."""
    response = make_response(html, status)
    if status == 200 and current_viewer() is None and not session.get("_flashes"):
        response.headers["Cache-Control"] = f"public, max-age={MAX_AGE}"
        response.vary.add("Accept-Language")
    return response


def _game(game_id: int):
    try:
        return archive.public_game(game_id)
    except NotFound:
        abort(404)


@bp.get("")
def index():
    """Public finished games, newest first, searchable by game and player name, paged."""
    query = request.args.get("q", "")[:archive.MAX_QUERY]
    page = whole_number(request.args, "page", 1, high=MAX_PAGE)
    found, total = archive.listing(query, page)
    lang = current_language()
    winners = {g.id: archive.report(g, None, lang).winners for g in found}
    pages = max(1, -(-total // archive.PER_PAGE))
    return shared(render_template("web/archive/index.html", games=found, total=total,
                                  query=query.strip(), page=page, pages=pages,
                                  winners=winners))


def _charts(report, lang: str):
    if not report.history:
        return None
    t = lambda text: translate(lang, text)  # noqa: E731
    words = {"title": t("Total points after each round"),
             "desc": t("A line per player: the total after rounds 1 to {}.").format(report.round)
             + " " + "; ".join(f"{name}: {totals[-1]}" for name, totals in
                               report.history.items() if totals[-1] is not None),
             "round_label": t("Round"), "points_label": t("Points")}
    return (standings_chart(report.history, chart_id="standings-chart", **words),
            standings_chart(report.history, chart_id="standings-chart-narrow", width=360,
                            plot_height=220, **words))


@bp.get("/<int:game_id>")
def game(game_id: int):
    """A finished public game: its result, house rules, standings chart and every report."""
    found = _game(game_id)
    lang = current_language()
    final = archive.report(found, None, lang)
    return shared(render_template("web/archive/game.html", game=found, report=final,
                                  charts=_charts(final, lang),
                                  rules=house_rules.table(found, lang),
                                  posts=archive.board_posts(found, lang)))


@bp.get("/<int:game_id>/rounds/<int:number>")
def round_report(game_id: int, number: int):
    """One round's report; the final one reveals the distribution and the salt."""
    found = _game(game_id)
    report = archive.report(found, number, current_language())
    return shared(render_template("web/archive/report.html", game=found, report=report,
                                  placed=_placed(report.distribution)))


def _placed(distribution: str | None):
    if not distribution:
        return None
    placed = dict(part.split("=", 1) for part in distribution.split(";"))
    return [(loc, [c for c in placed.get(loc, "").split(",") if c]) for loc in LOCATIONS]


@bp.get("/<int:game_id>/story")
def story(game_id: int):
    """The game told afterwards, as stored; players by their public names."""
    found = _game(game_id)
    lang = current_language()
    state, told = archive.story(found, lang)
    if told is None:
        return render_template("web/archive/pending.html", game=found, state=state,
                               again=request.path), 202 if state != "failed" else 200
    charts = None
    if told["rounds"]:
        charts = (deals_chart(told, lang),
                  deals_chart(told, lang, chart_id="story-chart-narrow", width=360,
                              plot_height=220))
    return shared(render_template("web/archive/story.html", game=found, story=told,
                                  charts=charts))


@bp.get("/<int:game_id>/replay/<int:number>")
def replay(game_id: int, number: int):
    """Step ``number`` of the replay: what everyone could know after that round; the step
    after the last round reveals the deal."""
    found = _game(game_id)
    lang = current_language()
    rounds = len(archive.resolved_rounds(found))
    if number == rounds + 1:
        final = archive.report(found, None, lang)
        state, step = archive.step(found, rounds, lang)
        if step is None:
            return render_template("web/archive/pending.html", game=found, state=state,
                                   again=request.path), 202 if state != "failed" else 200
        return shared(render_template("web/archive/reveal.html", game=found, report=final,
                                      step=step, rounds=rounds,
                                      placed=_placed(final.distribution),
                                      sheet=archive.sheet_rows(step.possible),
                                      truth=_truth(final.distribution)))
    state, step = archive.step(found, number, lang)
    if step is None:
        return render_template("web/archive/pending.html", game=found, state=state,
                               again=request.path), 202 if state != "failed" else 200
    return shared(render_template("web/archive/replay.html", game=found, step=step,
                                  rounds=rounds, sheet=archive.sheet_rows(step.possible)))


def _truth(distribution: str | None) -> dict[str, str]:
    """Each gem's true place, from the revealed distribution."""
    out = {}
    for part in (distribution or "").split(";"):
        loc, _, codes = part.partition("=")
        out.update(dict.fromkeys((c for c in codes.split(",") if c), loc))
    return out
