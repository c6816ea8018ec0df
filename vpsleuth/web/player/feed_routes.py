"""The Atom feed of round reports and the iCalendar feed of deadlines.

Readers fetch these without a session: a private URL with a signed token
(see ..feeds) stands in for it. A signed-in member may fetch them too.
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlsplit

from flask import Response, abort, current_app, request, url_for
from markupsafe import escape

from ...i18n import translate
from ...models import Game, Player, utcnow
from ...rules.schedule import Schedule
from ...services import games, reports
from ...services.errors import NotFound
from .. import feeds
from ..session import current_language, current_viewer
from . import bp
from .common import member_game, zone_of


def _reader(game_id: int) -> tuple[Game, Player | None, str, str | None]:
    """(game, player, language, token): by feed token, else by the signed-in member."""
    token = request.args.get("token")
    if token is None:
        if current_viewer() is None:
            abort(403)
        game, player = member_game(game_id)
        return game, player, current_language(), None
    try:
        game = games.find_game(game_id)
    except NotFound:
        abort(404)
    player = feeds.feed_player(token, game)
    if player is None:
        abort(404)  # a forged, foreign or outdated token: as for a game that is not there
    return game, player, player.language, token


def _host() -> str:
    return urlsplit(current_app.config.get("BASE_URL") or "").hostname or "localhost"


def _tag(game: Game, *parts: str) -> str:
    """A stable tag: URI (RFC 4151) naming the game on this service."""
    host = _host()
    day = (game.created_at or utcnow()).strftime("%Y-%m-%d")
    return f"tag:{host},{day}:vpsleuth/game/{game.id}" + "".join(f"/{p}" for p in parts)


@bp.get("/games/<int:game_id>/feed.atom")
def feed(game_id: int):
    """An Atom feed with one entry per round report, newest first."""
    game, player, lang, token = _reader(game_id)
    zone = zone_of(game, player)
    entries = []
    for round_ in reversed(reports.resolved_rounds(game)):
        report = reports.build_report(game, round_.number, lang)
        title = (translate(lang, "Final report") if report.final
                 else translate(lang, "Round report"))
        entries.append(feeds.FeedEntry(
            id=_tag(game, "round", str(round_.number)),
            title=f"{game.name}: {title} {translate(lang, 'Round')} {round_.number}",
            updated=round_.resolved_at,
            url=url_for("player.round_report", game_id=game.id, number=round_.number,
                        _external=True),
            html=f"<pre>{escape(reports.render_text(report, zone, lang))}</pre>"))
    updated = entries[0].updated if entries else (game.started_at or game.created_at)
    body = feeds.atom_feed(
        feed_id=_tag(game), title=f"VP-Sleuth: {game.name}", updated=updated,
        self_url=url_for("player.feed", game_id=game.id, token=token, _external=True),
        page_url=url_for("player.game", game_id=game.id, _external=True),
        entries=entries, lang=lang)
    return _private(Response(body, mimetype="application/atom+xml"))


@bp.get("/games/<int:game_id>/calendar.ics")
def calendar(game_id: int):
    """Every round's deadline: past, open, and the rest of the schedule as planned now."""
    game, player, lang, _ = _reader(game_id)
    page = url_for("player.turn" if player else "player.game", game_id=game.id, _external=True)
    events = []
    for number, deadline, planned in _deadlines(game):
        summary = translate(lang, "{}: deadline of round {}").format(game.name, number)
        note = translate(lang, "planned; the game master may move it") if planned else ""
        events.append(feeds.CalendarEvent(
            uid=f"vpsleuth-game-{game.id}-round-{number}@{_host()}", start=deadline,
            summary=summary,
            description=" ".join(filter(None, [note, page])), url=page))
    body = feeds.calendar(name=f"VP-Sleuth: {game.name}", events=events, stamp=utcnow())
    return _private(Response(body, mimetype="text/calendar"))


def _deadlines(game: Game) -> list[tuple[int, datetime, bool]]:
    """(round number, deadline, planned?) for every round held or still to come."""
    out = [(r.number, r.deadline, False) for r in game.rounds_]
    if game.state not in ("running", "paused") or not game.rounds_:
        return out
    schedule, last = Schedule.from_json(game.schedule), game.rounds_[-1]
    previous = last.deadline
    for number in range(last.number + 1, game.rounds + 1):
        previous = schedule.deadline(number, not_before=previous)
        out.append((number, previous, True))
    return out


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "private, max-age=300"
    return response

