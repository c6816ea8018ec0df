"""The GM's games: the list, a new game, a game's players and its start."""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from sqlalchemy import select

from ...extensions import db
from ...i18n import N_
from ...i18n.schedule_words import schedule_error_text
from ...models import Game
from ...rules import RulesetError
from ...rules.schedule import ScheduleError
from ...services import games, gm, lobby, outcome, standing_turns
from ...services.errors import ServiceError
from ..glance import game_cards
from ..session import current_language, current_viewer
from . import bp
from .forms import AfterEarlyForm, InviteForm, NewGameForm
from .game_page import game_page
from .helpers import actor, game_player, gm_game, refused, say
from .lobby import listing_input


@bp.get("/")
def index():
    """The GM's games, newest first, with the open round and its submissions."""
    mine = db.session.scalars(select(Game).where(Game.game_master_id == current_viewer().gm_id)
                              .order_by(Game.id.desc())).all()
    rows = []
    for game in mine:
        live = game.state in ("running", "paused")
        status = standing_turns.round_status(game) if live else []
        rows.append((game, game.open_round if live else None,
                     sum(1 for s in status if s.submitted), len(status)))
    playing = [card for card in game_cards(current_viewer()) if card.at.player is not None]
    return render_template("web/gm/index.html", rows=rows, playing=playing,
                           outcomes=outcome.outcomes(mine, {}, current_language()))


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    """Create a game with its house rules, reminders and deadline schedule."""
    form = NewGameForm()
    if request.method == "GET":
        form.language.data = current_language()
    errors: dict[str, str] = {}
    if form.validate_on_submit():
        rules = schedule = hours = None
        try:
            rules = form.ruleset()
        except (RulesetError, ValueError) as exc:
            errors["rules"] = str(exc)
        try:
            hours = form.reminder_hours()
        except ValueError as exc:
            errors["reminders"] = str(exc)
        try:
            schedule = form.schedule()
        except ScheduleError as exc:
            errors["schedule"] = schedule_error_text(exc, current_language())
        try:
            listing = listing_input()
        except ValueError as exc:
            errors["listing"] = str(exc)
        if not errors:
            try:
                game = games.create_game(form.name.data, schedule, rules,
                                         language=form.language.data, actor=actor(),
                                         game_master_id=current_viewer().gm_id,
                                         reminder_hours=hours,
                                         after_early=form.after_early.data,
                                         deduction_aid=bool(form.deduction_aid.data),
                                         missed_turn_rule=form.missed_turn_rule.data)
            except ServiceError as exc:
                errors["form"] = exc.text(current_language())
            else:
                if listing != (False, None):
                    lobby.set_listing(game, open_to_join=listing[0], max_players=listing[1],
                                      actor=actor())
                say(N_("Game created. Now invite the players."))
                return redirect(url_for("gm.game", game_id=game.id))
    status = 400 if request.method == "POST" else 200
    return render_template("web/gm/new_game.html", form=form, errors=errors), status


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    """A game: its rules and schedule, its players, the start, its reports."""
    game = gm_game(game_id)
    return game_page(game, InviteForm(language=game.language))


@bp.post("/games/<int:game_id>/after-early")
def after_early(game_id: int):
    """After a round closes early: keep the calendar or start a fresh interval (audited)."""
    game = gm_game(game_id)
    form = AfterEarlyForm()
    if not form.validate():
        say(N_("Choose one of the offered values."), "error")
        return game_page(game, InviteForm(language=game.language), 400)
    try:
        gm.set_after_early(game, form.after_early.data, actor=actor())
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    say(N_("Saved: after an early close the next deadline keeps the calendar.")
        if game.after_early == "calendar" else
        N_("Saved: after an early close the next round gets a whole interval from the close."))
    return redirect(url_for("gm.game", game_id=game.id) + "#schedule")


@bp.post("/games/<int:game_id>/aid")
def deduction_aid(game_id: int):
    """Switch the deduction aid house rule, before the game starts (audited)."""
    game = gm_game(game_id)
    try:
        gm.set_deduction_aid(game, request.form.get("deduction_aid") == "on", actor=actor())
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    say(N_("Saved: the deduction aid is on.") if game.deduction_aid else
        N_("Saved: the deduction aid is off."))
    return redirect(url_for("gm.game", game_id=game.id) + "#aid")


@bp.post("/games/<int:game_id>/missed-turn")
def missed_turn_rule(game_id: int):
    """Choose what a missed turn plays, before the game starts (audited)."""
    game = gm_game(game_id)
    try:
        gm.set_missed_turn_rule(game, request.form.get("missed_turn_rule", ""), actor=actor())
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    say(N_("Saved: the rule for a missed turn."))
    return redirect(url_for("gm.game", game_id=game.id) + "#missed-turn")


@bp.post("/games/<int:game_id>/players")
def invite(game_id: int):
    """Add a player; the service queues the invitation with a sign-in link."""
    game = gm_game(game_id)
    form = InviteForm()
    if not form.validate():
        return game_page(game, form, 400)
    try:
        player = games.add_player(game, form.name.data, form.email.data,
                                  language=form.language.data, actor=actor())
    except ServiceError as exc:
        db.session.rollback()
        return game_page(game, form, 400, invite_error=exc.text(current_language()))
    say(N_("{name} is invited; the invitation is in the outbox."), name=player.name)
    return redirect(url_for("gm.game", game_id=game.id) + "#players")


@bp.post("/games/<int:game_id>/players/<int:player_id>/withdraw")
def withdraw(game_id: int, player_id: int):
    game = gm_game(game_id)
    player = game_player(game, player_id)
    try:
        games.withdraw_player(player, actor=actor())
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    say(N_("{name} is withdrawn."), name=player.name)
    return redirect(url_for("gm.game", game_id=game.id) + "#players")


@bp.post("/games/<int:game_id>/players/<int:player_id>/email")
def change_email(game_id: int, player_id: int):
    game = gm_game(game_id)
    player = game_player(game, player_id)
    try:
        gm.change_email(player, request.form.get("email", ""), actor=actor())
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    say(N_("{name} now plays as {email}."), name=player.name, email=player.email)
    return redirect(url_for("gm.game", game_id=game.id) + "#players")


@bp.post("/games/<int:game_id>/start")
def start(game_id: int):
    """Deal, publish the commitment and open round 1 (the service mails the players)."""
    game = gm_game(game_id)
    try:
        games.start_game(game, actor=actor())
    except ServiceError as exc:
        return game_page(game, InviteForm(language=game.language), refused(exc))
    say(N_("The game has started and round 1 is open. Commitment (SHA-256): {commitment}"),
        commitment=game.commitment)
    return redirect(url_for("gm.board", game_id=game.id))
