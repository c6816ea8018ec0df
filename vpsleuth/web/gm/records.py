"""What the GM reads and keeps: the audit log, the outbox, the API tokens."""

from __future__ import annotations

import re

from flask import make_response, redirect, render_template, request, url_for
from sqlalchemy import func, select

from ...extensions import db
from ...i18n import N_
from ...models import ApiToken, AuditEntry, Game, OutboxMessage, Player
from ...services import accounts, gm
from ...services.errors import Invalid, NotFound, ServiceError
from ..inputs import whole_number
from ..session import current_language, current_viewer
from . import bp
from .forms import TokenForm
from .helpers import actor, gm_account, gm_game, no_store, refused, say

OUTBOX_PAGE = 50
OUTBOX_STATES = ("pending", "sending", "sent", "failed")
TOKEN_ACTIONS = ("issue_api_token", "revoke_api_token")


@bp.get("/games/<int:game_id>/audit")
def audit(game_id: int):
    """Every action on the game, newest first, in the game's time zone."""
    game = gm_game(game_id)
    entries = db.session.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id)
                                 .order_by(AuditEntry.id.desc())).all()
    return render_template("web/gm/audit.html", game=game, entries=entries)


def _my_games() -> dict[int, Game]:
    return {g.id: g for g in db.session.scalars(
        select(Game).where(Game.game_master_id == current_viewer().gm_id))}


@bp.get("/outbox")
def outbox():
    """Mails for the GM's games: with no mail server they wait here to be forwarded."""
    mine = _my_games()
    status = request.args.get("status", "")
    game_id = whole_number(request.args, "game")
    page = whole_number(request.args, "page", 1)
    ids = [game_id] if game_id in mine else list(mine)
    query = select(OutboxMessage).where(OutboxMessage.game_id.in_(ids))
    if status in OUTBOX_STATES:
        query = query.where(OutboxMessage.status == status)
    total = db.session.scalar(select(func.count()).select_from(query.subquery()))
    mails = db.session.scalars(query.order_by(OutboxMessage.id.desc())
                               .offset((page - 1) * OUTBOX_PAGE).limit(OUTBOX_PAGE)).all()
    return render_template("web/gm/outbox.html", mails=mails, games=mine, status=status,
                           game_id=game_id if game_id in mine else None, page=page,
                           pages=max((total + OUTBOX_PAGE - 1) // OUTBOX_PAGE, 1), total=total,
                           states=OUTBOX_STATES)


# What in a mail works as a key for its addressee: sign-in and invitation links,
# feed tokens, reply keys. The GM reads mails with these hidden.
SECRETS = re.compile(r"(/signin/|/settings/address/)[\w.\-]+|([?&]token=)[\w.\-]+"
                     r"|(\+\d+\.)[a-z2-7]{16}(?=@)", re.IGNORECASE)


def masked(text: str) -> str:
    """``text`` with every link or key that would act for its addressee hidden."""
    return SECRETS.sub(lambda m: (m.group(1) or m.group(2) or m.group(3)) + "…", text)


def _my_mail(message_id: int) -> tuple[OutboxMessage, Game]:
    mail = db.session.get(OutboxMessage, message_id)
    mine = _my_games()
    if mail is None or mail.game_id not in mine:
        raise NotFound(N_("no such mail in the outbox of your games"))
    return mail, mine[mail.game_id]


@bp.get("/outbox/<int:message_id>")
def outbox_message(message_id: int):
    """One mail with its text body, its links hidden; invitations can be forwarded."""
    mail, game = _my_mail(message_id)
    page = render_template("web/gm/outbox_message.html", mail=mail, game=game,
                           body=masked(mail.body_text), forwardable=_invitee(mail) is not None)
    return no_store(make_response(page))


def _invitee(mail: OutboxMessage) -> Player | None:
    """The player an invitation mail is for, while the address is still theirs."""
    if mail.kind != "invitation" or mail.player_id is None:
        return None
    player = db.session.get(Player, mail.player_id)
    ok = player is not None and player.email.strip().lower() == mail.to_addr.strip().lower()
    return player if ok else None


@bp.post("/outbox/<int:message_id>/forward")
def forward_invitation(message_id: int):
    """The invitation with a fresh link of its own, to forward by hand; audited.

    The link is the invitation's kind: it opens that one player in that one
    game, never a session for the address's other games or its GM role.
    """
    mail, game = _my_mail(message_id)
    player = _invitee(mail)
    if player is None:
        raise NotFound(N_("only an invitation to a player of your game can be forwarded"))
    link = gm.invitation_link(player, actor=actor(), mail_id=mail.id)
    body = SECRETS.sub(lambda m: link if m.group(1) else m.group(0), mail.body_text, count=1)
    if link not in body:
        body += "\n\n" + link
    page = render_template("web/gm/outbox_message.html", mail=mail, game=game, body=body,
                           forwarded=True, forwardable=False)
    return no_store(make_response(page))


def _tokens_page(status: int = 200, new_token: str | None = None, form: TokenForm | None = None):
    gm_id = current_viewer().gm_id
    tokens = db.session.scalars(select(ApiToken).where(ApiToken.game_master_id == gm_id)
                                .order_by(ApiToken.id.desc())).all()
    log = db.session.scalars(select(AuditEntry).where(
        AuditEntry.game_id.is_(None), AuditEntry.actor == actor(),
        AuditEntry.action.in_(TOKEN_ACTIONS)).order_by(AuditEntry.id.desc()).limit(20)).all()
    page = render_template("web/gm/tokens.html", tokens=tokens, new_token=new_token,
                           form=form or TokenForm(), log=log)
    return no_store(make_response(page, status))


@bp.get("/tokens")
def tokens():
    """The GM's API tokens: label, when made and last used, revoked or live."""
    return _tokens_page()


@bp.post("/tokens")
def issue_token():
    """A new token, shown once on this response and never again (only its hash is kept)."""
    form = TokenForm()
    if not form.validate():
        return _tokens_page(400, form=form)
    try:
        token, raw = accounts.issue_api_token(game_master=gm_account(),
                                              label=form.label.data or "", actor=actor())
    except Invalid as exc:
        db.session.rollback()
        form.label.errors = [exc.text(current_language())]
        return _tokens_page(400, form=form)
    say(N_("Token {label} issued. Copy it now: it is shown only once."),
        label=repr(token.label) if token.label else f"#{token.id}")
    return _tokens_page(new_token=raw)


@bp.post("/tokens/<int:token_id>/revoke")
def revoke_token(token_id: int):
    try:
        accounts.revoke_api_token(token_id, owner_gm=gm_account(), actor=actor())
    except ServiceError as exc:
        return _tokens_page(refused(exc))
    say(N_("The token is revoked; it no longer works."))
    return redirect(url_for("gm.tokens"))
