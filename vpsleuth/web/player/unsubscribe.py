"""The one-click unsubscribe link of a mail (RFC 8058): no sign-in, the signed token is the key.

A mail program's "Unsubscribe" POSTs ``List-Unsubscribe=One-Click`` to the link
without cookies or a CSRF token, so the POST is exempt from CSRF: the token,
signed for one player and one kind of mail (services/unsubscribe.py), is what
guards it. A GET (a person following the link, or a mail scanner fetching it)
changes nothing: it shows what the button would turn off.

The pages speak the player's language unless this browser chose another.
"""

from __future__ import annotations

from flask import g, render_template, session

from ...models import Player
from ...services import unsubscribe as letting_go
from ...services.errors import NotFound, ServiceError
from ..security import csrf
from ..session import LANGUAGES, current_language
from . import bp


def _page(player: Player | None, kind: str | None, token: str, *, state: str,
          error: str | None = None, status: int = 200):
    page = render_template("web/player/unsubscribe.html", player=player, kind=kind,
                           token=token, state=state, error=error)
    # A link a mail scanner may fetch: no cache keeps it, no search engine lists it.
    return page, status, {"Cache-Control": "no-store", "X-Robots-Tag": "noindex"}


def _link(token: str) -> tuple[Player, str]:
    """The link's player and kind, the page in the player's language unless this browser
    chose one; raises the service's refusal (Invalid, NotFound)."""
    player, kind = letting_go.read(token)
    if session.get("lang") not in LANGUAGES:
        g.lang = player.language
    return player, kind


def _refused(token: str, exc: ServiceError):
    """A forged, altered or stale link: said plainly, and nothing changed."""
    return _page(None, None, token, state="refused",
                 error=exc.sentence(current_language()),
                 status=404 if isinstance(exc, NotFound) else 400)


@bp.get("/unsubscribe/<token>")
def unsubscribe_page(token: str):
    """What the link turns off, and the button that does it (a GET never changes anything)."""
    try:
        player, kind = _link(token)
    except ServiceError as exc:
        return _refused(token, exc)
    return _page(player, kind, token, state="ask" if letting_go.is_on(player, kind) else "done")


@bp.post("/unsubscribe/<token>")
@csrf.exempt  # RFC 8058: the mail program's POST has no cookie and no CSRF token
def unsubscribe(token: str):
    """Turn the link's kind of mail off for its player: the one-click POST, or the button."""
    try:
        player, kind = _link(token)
    except ServiceError as exc:
        return _refused(token, exc)
    letting_go.turn_off(player, kind)
    return _page(player, kind, token, state="done")
