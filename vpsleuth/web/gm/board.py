"""The status board of the open round and what the GM does to it.

The board shows counts only (services.standing_turns.round_status): never a tip or a
question's content, so it can be shown on a screen others see. The
distribution is behind a page of its own with an explicit confirm step.
"""

from __future__ import annotations

from flask import make_response, redirect, render_template, request, url_for

from ...i18n import N_, translate
from ...i18n.dates import day_text
from ...i18n.schedule_words import schedule_error_text
from ...models import Game
from ...orders import localized
from ...rules import LOCATIONS, Distribution
from ...rules.schedule import ScheduleError
from ...services import absence, gm, outcome, resolution, standing_turns
from ...services.errors import ServiceError, TurnRefused
from ..session import current_language
from . import bp
from .forms import RoundForm, TimeForm, TurnForm
from .helpers import actor, game_player, gm_game, local_input, local_to_utc, no_store, refused, say


def _board(game: Game, status: int = 200, extend: TimeForm | None = None):
    round_ = game.open_round if game.state in ("running", "paused") else None
    if extend is None and round_ is not None:
        extend = TimeForm(deadline=local_input(round_.deadline, game.timezone))
    return render_template("web/gm/board.html", game=game, round=round_,
                           rows=standing_turns.round_status(game) if round_ else [],
                           extend=extend, away={pid: day_text(day, current_language())
                                                 for pid, day in absence.away_in(game).items()},
                           result=outcome.outcome(game, None, current_language())), status


@bp.get("/games/<int:game_id>/board")
def board(game_id: int):
    """Who has sent a turn this round, when, how, and how many tips (counts only)."""
    return _board(gm_game(game_id))


@bp.post("/games/<int:game_id>/deadline")
def extend(game_id: int):
    """Move the open round's deadline later or earlier; the time is local to the game's zone."""
    game = gm_game(game_id)
    form = TimeForm()
    if not form.validate():
        return _board(game, 400, form)
    try:
        deadline = local_to_utc(form.deadline.data, game.timezone)
    except ScheduleError as exc:
        form.deadline.errors = [schedule_error_text(exc, current_language())]
        return _board(game, 400, form)
    try:
        round_ = gm.move_deadline(game, deadline, actor=actor())
    except ServiceError as exc:
        return _board(game, refused(exc), form)
    say(N_("The deadline of round {n} is now {when}; the players are told."), n=round_.number,
        when=form.deadline.data.replace("T", " "))
    return redirect(url_for("gm.board", game_id=game.id))


@bp.post("/games/<int:game_id>/pause")
def pause(game_id: int):
    game = gm_game(game_id)
    try:
        gm.pause_game(game, actor=actor())
    except ServiceError as exc:
        return _board(game, refused(exc))
    say(N_("The game is paused: no turns and no resolution until you resume it."))
    return redirect(url_for("gm.board", game_id=game.id))


@bp.post("/games/<int:game_id>/resume")
def resume(game_id: int):
    game = gm_game(game_id)
    try:
        gm.resume_game(game, actor=actor())
    except ServiceError as exc:
        return _board(game, refused(exc))
    say(N_("The game runs again; the deadline moved on by the length of the pause."))
    return redirect(url_for("gm.board", game_id=game.id))


@bp.post("/games/<int:game_id>/resolve")
def resolve(game_id: int):
    """Resolve the round the GM saw; a repeat (double click, reload) does nothing."""
    game = gm_game(game_id)
    form = RoundForm()
    if not form.validate():
        say(N_("Which round? Reload the status board and try again."), "error")
        return _board(game, 400)
    try:
        done = resolution.resolve_round(game, number=form.number.data, actor=actor())
    except ServiceError as exc:
        return _board(game, refused(exc))
    if done is None:
        say(N_("Round {n} is resolved already (or does not exist); nothing was done."), "error",
            n=form.number.data)
    else:
        say(N_("Round {n} is resolved; the report is in the outbox."), n=done.number)
    return redirect(url_for("gm.board", game_id=game.id))


@bp.route("/games/<int:game_id>/turn", methods=["GET", "POST"])
def enter_turn(game_id: int):
    """A turn the GM enters for a player (received on paper, by phone, ...)."""
    game = gm_game(game_id)
    form = TurnForm()
    if request.method == "GET":
        form.player.data = request.args.get("player", "")
        form.round.data = game.open_round.number if game.open_round else None
        return _turn_page(game, form)
    if not form.validate():
        return _turn_page(game, form, 400)
    player = game_player(game, form.player.data)
    try:
        gm.enter_turn(player, form.text.data, actor=actor(), round_number=form.round.data)
    except TurnRefused as exc:
        return _turn_page(game, form, 422,
                          line_errors=localized(exc.errors, current_language(), translate))
    except ServiceError as exc:
        return _turn_page(game, form, refused(exc))
    say(N_("The turn of {name} is in; a confirmation mail is in the outbox."), name=player.name)
    return redirect(url_for("gm.board", game_id=game.id))


def _turn_page(game: Game, form: TurnForm, status: int = 200, line_errors=()):
    players = [(p.id, p.name) for p in game.active_players]
    return render_template("web/gm/turn.html", game=game, form=form, round=game.open_round,
                           players=players, line_errors=line_errors), status


@bp.route("/games/<int:game_id>/distribution", methods=["GET", "POST"])
def distribution(game_id: int):
    """A warning first; the distribution only after the GM confirms (audited)."""
    game = gm_game(game_id)
    if request.method == "GET" or request.form.get("confirm") != "yes":
        return no_store(make_response(render_template("web/gm/distribution.html", game=game)))
    try:
        canonical, salt = gm.view_distribution(game, actor=actor())
    except ServiceError as exc:
        status = refused(exc)
        return render_template("web/gm/distribution.html", game=game), status
    dealt = Distribution.from_canonical(canonical)
    lang = current_language()
    hands = [(loc, [(gem.code, gem.name(lang)) for gem in dealt.holding(loc)])
             for loc in LOCATIONS]
    page = render_template("web/gm/distribution.html", game=game, hands=hands, salt=salt,
                           canonical=canonical)
    return no_store(make_response(page))
