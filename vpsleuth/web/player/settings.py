"""The player's settings: how news reaches them, mails per game, language, time zone, tokens."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

from ...i18n import translate
from ...models import Player
from ...rules.schedule import zone_names
from ...services import access, accounts, address, names, preferences
from ...services.errors import Invalid, NotFound, ServiceError
from ..inputs import whole_number
from ..session import current_language, current_viewer, login_required, sign_in
from . import bp
from .channels import channels_of

LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "es": "Español"}


def _my_players() -> list[Player]:
    """The viewer's own player rows, one per game they play in."""
    viewer = current_viewer()
    mine = (access.player_in(viewer, g) for g in access.games_of(viewer))
    return [p for p in mine if p is not None]


def _render(players: list[Player], *, status: int = 200, errors: dict | None = None,
            new_token: tuple[int, str] | None = None, values: dict | None = None):
    tokens = accounts.api_tokens_of_players({p.id for p in players})
    viewer = current_viewer()
    profile = names.profile_of(viewer.email) if viewer.player_id is None else None
    page = render_template(
        "web/player/settings.html", players=players, tokens=tokens, errors=errors or {},
        new_token=new_token, values=values or {}, languages=LANGUAGE_NAMES,
        profile=profile, scoped=viewer.player_id is not None,
        zones=zone_names(), **channels_of(viewer),
        names={p.id: p.game.name for p in players})
    return page, status, {"Cache-Control": "no-store"}


def settings_page(*, status: int = 200, errors: dict | None = None):
    """The settings page as it stands, with ``errors`` by block (another view's form)."""
    return _render(_my_players(), status=status, errors=errors)


@bp.get("/settings")
@login_required
def settings():
    """The settings page: one block per game, then the API tokens."""
    return _render(_my_players())


@bp.post("/settings")
@login_required
def save_settings():
    """Save one game's mail choices, or issue or revoke an API token."""
    lang = current_language()
    players = _my_players()
    by_id = {p.id: p for p in players}
    action = request.form.get("action")
    if action == "revoke":
        try:
            accounts.revoke_api_token(whole_number(request.form, "token_id", 0),
                                      owner_player_ids=set(by_id),
                                      actor=current_viewer().email)
        except NotFound:
            return _render(players, status=404, errors={
                "tokens": translate(lang, "No such token of yours; it may be revoked already.")})
        flash(translate(lang, "The token is revoked; programs using it are refused now."), "ok")
        return redirect(url_for("player.settings") + "#tokens")
    player = by_id.get(whole_number(request.form, "player_id", 0))
    if player is None:
        return _render(players, status=404, errors={
            "form": translate(lang, "You do not play in that game.")})
    if action == "address":
        try:
            sent_to = address.request_change(player, request.form.get("email", ""))
        except Invalid as exc:
            return _render(players, status=400, errors={player.id: exc.text(lang)})
        flash(translate(lang, "A link to confirm it went to {}; your address changes when it "
                              "is opened.").format(sent_to), "ok")
        return redirect(url_for("player.settings") + f"#game-{player.game_id}")
    if action == "display_name":
        try:
            names.set_display_name(player, request.form.get("display_name", ""))
        except Invalid as exc:
            return _render(players, status=400, errors={player.id: exc.text(lang)})
        flash(translate(lang, "Saved: your name in the archive for {}.").format(
            player.game.name), "ok")
        return redirect(url_for("player.settings") + f"#game-{player.game_id}")
    if action == "token":
        try:
            _, raw = accounts.issue_api_token(player=player, label=request.form.get("label", ""),
                                              actor=current_viewer().email)
        except Invalid as exc:
            return _render(players, status=400, errors={"tokens": exc.text(lang)})
        return _render(players, new_token=(player.id, raw))
    values = {
        "wants_round_mail": "wants_round_mail" in request.form,
        "wants_reminders": "wants_reminders" in request.form,
        "wants_confirmations": "wants_confirmations" in request.form,
        "language": request.form.get("language", ""),
        "timezone": request.form.get("timezone", ""),
        "board_mail": request.form.get("board_mail"),  # none in a practice game's block
    }
    try:
        preferences.update_preferences(player, **values)
    except Invalid as exc:
        return _render(players, status=400, errors={player.id: exc.text(lang)},
                       values={player.id: values})
    flash(translate(lang, "Your settings for {} are saved.").format(player.game.name), "ok")
    return redirect(url_for("player.settings") + f"#game-{player.game_id}")


@bp.get("/settings/address/<token>")
def confirm_address(token: str):
    """A page with a button: link scanners that fetch the link do not use it up."""
    return render_template("web/player/address_confirm.html", token=token)


@bp.post("/settings/address/<token>")
def change_address(token: str):
    """The new address is confirmed: the old one loses the player, this browser gets it."""
    lang = current_language()
    try:
        player = address.confirm_change(token)
    except ServiceError as exc:
        return render_template("web/error.html", message=exc.text(lang)), 400
    sign_in(player.email, player_id=player.id)
    flash(translate(lang, "Your address is changed. To see all your games, sign in with a "
                          "link you ask for."), "ok")
    return redirect(url_for("player.settings") + f"#game-{player.game_id}")
