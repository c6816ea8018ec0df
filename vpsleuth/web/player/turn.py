"""The turn form: GET shows the standing turn, POST hands turn-language text to the service."""

from __future__ import annotations

from dataclasses import replace

from flask import current_app, flash, redirect, render_template, request, url_for

from ...extensions import db
from ...i18n import translate
from ...models import Game, Player, Round, TurnVersion, utcnow
from ...orders import format_turn, localized
from ...rules import COLOURS, KINDS, LOCATIONS, PLACEHOLDERS, SIZES, Turn
from ...services import costly, outcome, standing_turns, turns
from ...services.errors import RoundClosed, TurnRefused, WrongState
from ..costs import who
from ..inputs import whole_number
from ..session import current_language, current_viewer, login_required
from . import bp
from .common import deadline_of, player_game
from .practice_turn import after_turn_url, resolved_report
from .turnform import TurnForm, basis_of, example_lines, gem_rows

MAX_TEXT = 20_000


def _closed_reason(game: Game, player: Player, round_: Round | None, lang: str) -> str | None:
    """Why no turn can be saved now, or None while the round takes turns."""
    if not player.active:
        return translate(lang, "The game master has withdrawn you from this game; "
                               "you can read its pages but send no more turns.")
    if game.state == "setup":
        return translate(lang, "The game has not started yet; round 1 opens when it starts.")
    if game.state == "finished":
        return translate(lang, "The game has ended; no more turns.")
    if game.state == "paused":
        return translate(lang, "The game master has paused the game; "
                               "turns are taken again when it resumes.")
    if round_ is None:
        return translate(lang, "No round is open right now.")
    if utcnow() >= round_.deadline:
        return translate(lang, "The deadline of round {} has passed; the round is being "
                               "resolved and round {} opens with the report.").format(
            round_.number, round_.number + 1)
    return None


def _render(game: Game, player: Player, form: TurnForm, standing: Turn, *, status: int = 200,
            line_errors=(), problem: str | None = None, pasted: str = "",
            prefilled: bool | None = None, kept: int = 0, refused_text: bool = False,
            resolved: int | None = None):
    lang = current_language()
    round_ = game.open_round
    last = next((r for r in standing_turns.round_status(game) if r.player.id == player.id), None)
    previous = game.round(round_.number - 1) if round_ is not None else None
    last_tips = standing_turns.standing_turn(previous, player).tips if previous is not None else {}
    page = render_template(
        "web/player/turn.html", game=game, player=player, round=round_, form=form,
        deadline=deadline_of(round_, game, player) if round_ else None,
        closed=_closed_reason(game, player, round_, lang), basis=basis_of(standing),
        standing_text=None if standing.is_empty else format_turn(
            standing.question, standing.tips, lang),
        last=last if last is not None and last.last_at else None,
        previous=previous, last_tips={g.code: loc for g, loc in last_tips.items()},
        prefilled=prefilled, kept=kept, line_errors=list(line_errors),
        problem=problem, pasted=pasted, refused_text=refused_text,
        outcome=outcome.outcome(game, player, lang) if game.state == "finished" else None,
        just_resolved=resolved_report(game, resolved, lang),
        rows=gem_rows(), locations=LOCATIONS,
        placeholders=PLACEHOLDERS, colours=COLOURS, kinds=KINDS, sizes=SIZES,
        max_text=MAX_TEXT, examples=example_lines(lang))
    return page, status


@bp.get("/games/<int:game_id>/turn")
@login_required
def turn(game_id: int):
    """The turn form for the open round, showing the turn standing now."""
    game, player = player_game(game_id)
    round_ = game.open_round
    standing = standing_turns.standing_turn(round_, player) if round_ is not None else Turn()
    if request.args.get("prefill") == "last" and round_ is not None and round_.number > 1:
        last_tips = standing_turns.standing_turn(game.round(round_.number - 1), player).tips
        form = TurnForm.from_turn(standing, tips=last_tips)
        return _render(game, player, form, standing, prefilled=bool(last_tips))
    refused = _refused_text(player, whole_number(request.args, "kept"))
    return _render(game, player, TurnForm.from_turn(standing), standing,
                   pasted=refused or "", refused_text=refused is not None,
                   resolved=whole_number(request.args, "after"))


def _refused_text(player: Player, version_id: int | None) -> str | None:
    """The text of the player's own turn that was just refused as too late, to keep."""
    if version_id is None:
        return None
    version = db.session.get(TurnVersion, version_id)
    if version is None or version.player_id != player.id or version.status != "refused":
        return None
    return version.text[:MAX_TEXT]


@bp.post("/games/<int:game_id>/turn")
@login_required
def save_turn(game_id: int):
    """Save the turn (see _save_turn); in practice within the costly limits, for there
    the turn resolves the round and the bots choose their next turns at once."""
    game, _ = player_game(game_id)
    if not game.practice:
        return _save_turn(game_id)
    with costly.spending("practice_turn", who(), most=current_app.config["COSTLY_PER_MINUTE"]):
        return _save_turn(game_id)


def _save_turn(game_id: int):
    """Save the turn: the choices in the form, then any lines written in the turn language.

    One save for both, so a corrected text is never lost to the other button.
    ``action=prefill`` (the fill-in button without the page's script) shows the
    form again with last round's tips added where nothing is picked, saving
    nothing; ``action=text`` is a page from before, sending its text alone.
    """
    game, player = player_game(game_id)
    lang = current_language()
    round_ = game.open_round
    standing = standing_turns.standing_turn(round_, player) if round_ is not None else Turn()
    posted_round = whole_number(request.form, "round")
    action = request.form.get("action", "save")
    if action == "text":
        return _save_text(game, player, standing, posted_round)
    form = TurnForm.from_post(request.form, lang)
    pasted = request.form.get("text", "")
    if len(pasted) > MAX_TEXT:
        problem = translate(lang, "The text is too long: at most {} characters.").format(MAX_TEXT)
        return _render(game, player, form, standing, status=422, problem=problem,
                       pasted=pasted[:MAX_TEXT])
    if action == "prefill":
        return _prefill(game, player, form, standing, pasted)
    if form.errors:
        problem = translate(lang, "Your turn was not saved; please correct the marked fields.")
        return _render(game, player, form, standing, status=422, problem=problem, pasted=pasted)
    if posted_round is None:
        problem = translate(lang, "This form is incomplete or out of date; please reload the page.")
        return _render(game, player, form, standing, status=400, problem=problem, pasted=pasted)
    if round_ is None or posted_round != round_.number:
        # A form for a round that is over: the service refuses it, naming the open round.
        return _submit(game, player, form.to_text(Turn(), lang) + pasted, posted_round, form,
                       standing, pasted=pasted)
    changed = not form.shows(standing)
    if changed and request.form.get("basis") != basis_of(standing):
        problem = translate(lang, "Your turn was changed elsewhere (by email or by the game "
                                  "master) since you opened this page. Your entries are kept "
                                  "below; the turn standing now is shown as text. Check and "
                                  "save again.")
        return _render(game, player, form, standing, status=409, problem=problem,
                       pasted=pasted)
    # Written lines apply after the form's choices; an untouched form adds nothing to them.
    choices = form.to_text(standing, lang) if changed or not pasted.strip() else ""
    if not (choices + pasted).strip():
        flash(translate(lang, "Nothing to save: choose a question or place tips first."), "info")
        return redirect(url_for("player.turn", game_id=game.id))
    return _submit(game, player, choices + pasted, posted_round, form, standing, pasted=pasted,
                   first_line=choices.count("\n"))


def _prefill(game: Game, player: Player, form: TurnForm, standing: Turn, pasted: str):
    """The posted form again with last round's tips where nothing is picked; nothing saved."""
    round_ = game.open_round
    if round_ is None or round_.number == 1:
        return _render(game, player, form, standing, prefilled=False, pasted=pasted)
    last_tips = standing_turns.standing_turn(game.round(round_.number - 1), player).tips
    _, kept = form.fill_in(last_tips)
    return _render(game, player, form, standing, prefilled=bool(last_tips), kept=kept,
                   pasted=pasted)


def _save_text(game: Game, player: Player, standing: Turn, posted_round: int | None):
    lang = current_language()
    text = request.form.get("text", "")
    form = TurnForm.from_turn(standing)
    if not text.strip() or len(text) > MAX_TEXT:
        problem = translate(lang, "Paste a turn in the turn language first (at most {} "
                                  "characters).").format(MAX_TEXT)
        return _render(game, player, form, standing, status=422, problem=problem, pasted=text)
    return _submit(game, player, text, posted_round, form, standing, pasted=text)


def _submit(game: Game, player: Player, text: str, posted_round: int | None, form: TurnForm,
            standing: Turn, pasted: str = "", first_line: int = 0):
    """Hand the text to the service; on refusal show why and keep what was entered.

    ``first_line``: how many lines of the form's choices come before the written
    text, so that refused lines are numbered as the player sees them.
    """
    lang = current_language()
    try:
        sub = turns.submit_turn(player, text, channel="web", entered_by=current_viewer().email,
                                round_number=posted_round)
    except TurnRefused as exc:
        problem = translate(lang, "Your turn was not applied; nothing of it counts. "
                                  "Please fix these lines:")
        errors = localized([replace(e, line=e.line - first_line) if e.line > first_line else e
                            for e in exc.errors], lang, translate)
        return _render(game, player, form, standing, status=422, line_errors=errors,
                       problem=problem, pasted=pasted)
    except (RoundClosed, WrongState) as exc:
        # Post/redirect/get: the page the player stays on (and reloads) is the turn
        # page itself, with the refused text kept (the version stored it verbatim).
        flash(exc.sentence(lang), "error")
        return redirect(url_for("player.turn", game_id=game.id, kept=exc.version_id), 303)
    practice_url = after_turn_url(game, sub)  # the round it resolved, not the next one
    if practice_url is not None:
        return redirect(practice_url, 303)
    flash(translate(lang, "Your turn for round {} is saved.").format(sub.round.number), "ok")
    return redirect(url_for("player.turn", game_id=game.id) + "#saved")
