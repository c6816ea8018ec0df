"""Check the mails ours queued against mails rendered one by one, as before any speed-up.

The notify functions render a report once per language and zone and write all
mails with one INSERT; this renders a sample of them the slow, obvious way
(build the report, render its text and the mail for this one player) and
compares subject, bodies and headers, so that a speed-up can never change
what a player receives.
"""

from __future__ import annotations

import json

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.i18n.dates import deadline_text
from vpsleuth.mail import keys, notify, render
from vpsleuth.models import Game, OutboxMessage
from vpsleuth.rules import Turn
from vpsleuth.services import reports
from vpsleuth.services.links import base_url


def expected(kind: str, game: Game, player, number: int) -> tuple[str, str, str]:
    """The (subject, text, html) of one mail, rendered for this player alone."""
    lang, zone = player.language, player.timezone or game.timezone
    board = keys.board_address(player)  # the game's board by mail (issue 20)
    if kind in ("report", "final_report"):
        report = reports.build_report(game, number, lang)
        due = report.next_deadline
        return render.render("report", lang, game=game, player=player, report=report,
                             report_text=reports.render_text(report, zone, lang),
                             next_deadline=deadline_text(due, zone, lang) if due else "",
                             closed_early=reports.closed_early_text(report, zone, lang),
                             base_url=base_url(), board_address=board)
    following = game.round(number + 1)
    return render.render("round_opened", lang, game=game, player=player, round=following,
                         deadline=notify._deadline(player, following), base_url=base_url(),
                         turn_template=notify.turn_template(player, following, Turn()),
                         repeated=0, unsubscribe_kind="round", board_address=board)


def check_mails(number: int, games: int = 3, every: int = 7) -> int:
    """Compare every ``every``-th mail of the first ``games`` games; the number compared.

    Raises SystemExit on the first difference.
    """
    rows = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.game_id <= games, OutboxMessage.status == "pending")
        .order_by(OutboxMessage.id)).all()
    compared = 0
    for row in rows[::every]:
        game = db.session.get(Game, row.game_id)
        player = next(p for p in game.players if p.id == row.player_id)
        subject, text, html = expected(row.kind, game, player, number)
        headers = json.loads(row.headers)
        if (row.subject, row.body_text, row.body_html) != (subject, text, html):
            raise SystemExit(f"mail {row.id} ({row.kind} to {row.to_addr}) differs from the "
                             "same mail rendered alone")
        if headers.get("Reply-To") != keys.reply_address(player) or row.to_addr != player.email:
            raise SystemExit(f"mail {row.id} ({row.kind}) has the wrong address or Reply-To")
        compared += 1
    return compared
