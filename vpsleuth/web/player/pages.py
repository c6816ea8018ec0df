"""A game's overview and the information sheet."""

from __future__ import annotations

from dataclasses import dataclass

from flask import render_template, url_for

from ...i18n import translate
from ...i18n.dates import moment_text
from ...mail.keys import reply_address
from ...mail.notify import has_mailbox
from ...models import Game, Player, Round
from ...services import glance, outcome, reports, standing_turns, story
from ...services import notebook as notebooks
from ...services.access import is_gm_of
from ..costs import spent
from ..feeds import feed_token
from ..session import current_language, current_viewer, login_required
from . import bp
from .absence_view import absence_context
from .common import deadline_of, member_game, player_game, zone_of
from .sheet import build_sheet, gem_order


@bp.get("/games/<int:game_id>")
@login_required
def game(game_id: int):
    """The game at a glance: state, open round and deadline, the viewer's turn, links."""
    return game_page(*member_game(game_id))


def game_page(game: Game, player: Player | None, *, status: int = 200,
              absence_error: str | None = None, absence_values: dict | None = None):
    """The overview, with the absence form's error and values when it was refused."""
    round_ = game.open_round if game.state in ("running", "paused") else None
    standing = standing_turns.standing_turn(round_, player) if round_ and player else None
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
        outcome=outcome.outcome(game, player, current_language()),
        # Shown whatever mails the player gets: with round mails off, a turn by mail
        # still needs the address to write to.
        reply_to=reply_address(player) if player is not None and has_mailbox(player) else None,
        **absence_context(game, player, absence_error, absence_values)), status


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


@dataclass(frozen=True)
class TurnRow:
    """One player of the overview's "who has sent a turn": a name and a time, no more."""

    name: str
    me: bool
    sent: bool
    iso: str | None  # UTC, for <time datetime> and the browser's conversion
    text: str | None  # in the viewer's (or the game's) zone


def turn_rows(round_: Round, game: Game, viewer: Player | None) -> list[TurnRow]:
    """Every active player of the open round: sent or not, and when, in the viewer's zone."""
    zone, lang = zone_of(game, viewer), current_language()
    bot = translate(lang, "bot")  # a computer player is marked as in the reports
    return [TurnRow(f"{row.player.name} ({bot})" if row.player.is_bot else row.player.name,
                    viewer is not None and row.player.id == viewer.id,
                    row.sent,
                    row.received_at.strftime("%Y-%m-%dT%H:%M:%SZ") if row.received_at else None,
                    moment_text(row.received_at, zone, lang) if row.received_at else None)
            for row in glance.turns_in(round_)]
