"""Round reports (HTML and zine-style text), standings with a chart, and the final check."""

from __future__ import annotations

from flask import Response, render_template, request

from ...i18n import translate
from ...i18n.dates import moment_text
from ...rules import LOCATIONS, verify_commitment
from ...services import reports, seats
from ...services.errors import NotFound
from ..charts import standings_chart
from ..session import current_language, login_required
from . import bp
from .common import member_game, zone_of


@bp.get("/games/<int:game_id>/rounds", endpoint="reports")
@login_required
def reports_list(game_id: int):
    """Every resolved round's report, newest first."""
    game, player = member_game(game_id)
    return render_template("web/player/reports.html", game=game, player=player,
                           rounds=list(reversed(reports.resolved_rounds(game))))


@bp.get("/games/<int:game_id>/rounds/<int:number>")
@login_required
def round_report(game_id: int, number: int):
    """One round's report; the final one reveals the distribution and the salt."""
    game, player = member_game(game_id)
    lang = current_language()
    report = reports.build_report(game, number, lang)
    placed = None
    if report.final and report.distribution:
        placed = dict(part.split("=", 1) for part in report.distribution.split(";"))
        placed = [(loc, [c for c in placed.get(loc, "").split(",") if c]) for loc in LOCATIONS]
    zone = zone_of(game, player)
    next_text = (moment_text(report.next_deadline, zone, lang)
                 if report.next_deadline else None)
    return render_template("web/player/report.html", game=game, player=player, report=report,
                           placed=placed, next_text=next_text, next_round=game.round(number + 1),
                           closed_early=reports.closed_early_text(report, zone, lang),
                           me=_me(game, player, lang))


@bp.get("/games/<int:game_id>/rounds/<int:number>.txt")
@login_required
def round_report_text(game_id: int, number: int):
    """The report as plain text, in the traditional zine style."""
    game, player = member_game(game_id)
    lang = current_language()
    report = reports.build_report(game, number, lang)
    text = reports.render_text(report, zone_of(game, player), lang)
    return Response(text, mimetype="text/plain")


@bp.get("/games/<int:game_id>/standings")
@login_required
def standings(game_id: int):
    """Totals after every round, as a table and as an SVG line chart."""
    game, player = member_game(game_id)
    lang = current_language()
    try:
        report = reports.build_report(game, None, lang)
    except NotFound:
        report = None
    charts = None
    if report is not None and report.history:
        t = lambda text: translate(lang, text)  # noqa: E731
        words = {
            "title": t("Total points after each round"),
            "desc": t("A line per player: the total after rounds 1 to {}.").format(report.round)
            + " " + "; ".join(f"{name}: {totals[-1]}" for name, totals in
                              report.history.items() if totals[-1] is not None),
            "round_label": t("Round"), "points_label": t("Points")}
        # Two drawings of one chart: text stays readable on a phone and on a desktop.
        charts = (standings_chart(report.history, chart_id="standings-chart", **words),
                  standings_chart(report.history, chart_id="standings-chart-narrow",
                                  width=360, plot_height=220, **words))
    ranked = sorted(report.history.items(), key=lambda kv: _rank_key(report, kv[0])) \
        if report else []
    return render_template("web/player/standings.html", game=game, player=player,
                           report=report, charts=charts, ranked=ranked,
                           me=_me(game, player, lang))


def _me(game, player, lang: str) -> str | None:
    """The viewer's seat as the report names it (a seat handed on says from which round)."""
    return seats.labelled({player.id: player.name}, game, lang)[player.id] if player else None


def _rank_key(report: reports.RoundReport, name: str) -> tuple[int, str]:
    row = next((r for r in report.rows if r.player == name), None)
    return (row.rank if row is not None else 10_000, name.lower())


@bp.get("/games/<int:game_id>/verify")
@login_required
def verify(game_id: int):
    """Check a revealed distribution and salt against the commitment published at the start."""
    game, player = member_game(game_id)
    distribution = request.args.get("distribution", "").strip()
    salt = request.args.get("salt", "").strip()
    commitment = request.args.get("commitment", game.commitment or "").strip()
    result = None
    if distribution and salt and commitment:
        result = verify_commitment(distribution, salt, commitment)
    return render_template("web/player/verify.html", game=game, player=player,
                           distribution=distribution, salt=salt, commitment=commitment,
                           result=result)
