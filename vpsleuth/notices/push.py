"""The Web Push channel: which notices each game event queues for a player's devices,
and how the scheduler sends one (RFC 8030 with VAPID, RFC 8292; aes128gcm, RFC 8291).

The receivers run in the service's transaction and only queue (queue.add): one
Notice per device of each player concerned, with its payload already in the
player's language, so nothing is sent from inside a request or a round's
transaction. Who gets what follows the mails: active human players of the game
(never a bot, nor in a practice game); the seat's current holder only, whose
address the seat carries (a replaced player's devices hear nothing more). Push is
its own switch: a device that is on gets every kind, whatever the mail settings.

A notice says only what the mail says in its first line, never a secret (no tip,
no question's answer, no distribution): "the report of round 3 of Opal Court is
out", not what it says. Its ``url`` opens the page, and its topic (one per game)
makes a phone replace the game's last notice instead of piling them up.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from flask import Flask, current_app
from sqlalchemy import select

from ..extensions import db
from ..models import BoardPost, Game, GameStory, Notice, Player, PushSubscription, Round, utcnow
from ..rules import Turn
from ..services import events
from ..services import push as devices
from ..services.errors import Invalid
from ..services.links import base_url
from . import push_words as words
from . import queue
from .queue import Outcome

if TYPE_CHECKING:
    import requests
    from pywebpush import WebPushException

CHANNEL = "push"
# RFC 8030 section 5.3: how soon the device must hear it (a push service may wake a
# sleeping phone for "high" only). A reminder is near its deadline; a board post can wait.
URGENCY = {"reminder": "high", "board_post": "low", "announcement": "normal"}
VAPID_EXPIRY = 12 * 3600  # seconds; RFC 8292 section 2: at most 24 h
NO_MAIL_DOMAIN = ".invalid"  # bots' and the demo's addresses (RFC 2606)


def topic(game_id: int) -> str:
    """The game's Topic (RFC 8030 section 5.4: at most 32 characters of base64url's
    alphabet): a device keeps the newest notice of each game."""
    return f"vpsleuth-game-{game_id}"


# --- who hears it --------------------------------------------------------------------

def _human(player: Player) -> bool:
    return (not player.is_bot and not player.game.practice and player.left_at is None
            and not player.email.lower().endswith(NO_MAIL_DOMAIN))


def _active(game: Game) -> list[Player]:
    return [p for p in game.active_players if _human(p) and p.withdrawn_at is None]


def _queue(game: Game, kind: str, readers: Iterable[Player], make) -> None:
    """One notice per device of each reader; ``make(player, link)`` is the payload,
    made once per language and zone (the words differ by both, nothing else does)."""
    readers = list(readers)
    if not readers:
        return
    by_email: dict[str, list[PushSubscription]] = {}
    emails = sorted({p.email.lower() for p in readers})
    with db.session.no_autoflush:  # the service's rows are half made
        for sub in db.session.scalars(select(PushSubscription).where(
                PushSubscription.email.in_(emails)).order_by(PushSubscription.id)):
            by_email.setdefault(sub.email, []).append(sub)
    if not by_email:
        return
    link, made = base_url(), {}
    for player in readers:
        subs = by_email.get(player.email.lower())
        if not subs:
            continue
        key = (player.language, player.zone)
        if key not in made:
            made[key] = make(player, link)
        for sub in subs:
            queue.add(CHANNEL, kind, made[key], game_id=game.id, player_id=player.id,
                      subscription_id=sub.id, topic=topic(game.id))


# --- the receivers (in the service's transaction) -----------------------------------------

def round_opened(game: Game, *, round_: Round) -> None:
    _queue(game, "round_opened", _active(game),
           lambda p, link: words.round_opened(game, round_, p, link))


def reminder_due(player: Player, *, round_: Round, hours: int) -> None:
    if _human(player):
        _queue(player.game, "reminder", [player],
               lambda p, link: words.reminder(player.game, round_, p, link, hours))


def turn_accepted(player: Player, *, round_: Round, standing: Turn, channel: str,
                  entered_by: str, signoff: tuple[str, ...]) -> None:
    if channel == "email" and _human(player):  # on the web, the page said it already
        _queue(player.game, "turn_received", [player],
               lambda p, link: words.turn_received(player.game, round_, p, link))


def _report(game: Game, round_: Round, final: bool) -> None:
    """As the mail's report_readers: who played the round, even if withdrawn since."""
    readers = [p for p in game.players if _human(p) and (
        p.active or not p.withdrawn_at or p.withdrawn_at >= round_.opened_at)]
    _queue(game, "report", readers,
           lambda p, link: words.report(game, round_, final, p, link))


def round_resolved(game: Game, *, round_: Round, ended: bool, report_waits: bool) -> None:
    if not report_waits:  # else it goes with the story (story_told), as the mail does
        _report(game, round_, ended)


def story_told(game: Game, *, story: GameStory, round_: Round | None) -> None:
    if story.final_report and round_ is not None:  # the final report waited for it
        _report(game, round_, True)


def story_overdue(game: Game, *, round_: Round) -> None:
    _report(game, round_, True)  # only a final report waits for a story


def board_posted(game: Game, *, post: BoardPost, announcement: bool) -> None:
    if post.hidden_at is not None or post.deleted_at is not None:
        return
    readers = [p for p in _active(game) if p.id != post.player_id
               and (announcement or p.board_mail != "none")]
    kind = "announcement" if announcement else "board_post"
    _queue(game, kind, readers,
           lambda p, link: words.board_post(game, post, announcement, p, link))


RECEIVERS = {
    events.round_opened: round_opened,
    events.reminder_due: reminder_due,
    events.turn_accepted: turn_accepted,
    events.round_resolved: round_resolved,
    events.story_told: story_told,
    events.story_overdue: story_overdue,
    events.board_posted: board_posted,
}


def init_app(app: Flask) -> None:
    """Connect the push channel to the services' signals (idempotent, for every app:
    blinker keys receivers by identity)."""
    for signal, receiver in RECEIVERS.items():
        signal.connect(receiver, weak=False)


# --- sending (the scheduler's queue) ------------------------------------------------------

def send(notice: Notice) -> Outcome:
    """Send one queued push notice to its device; what the push service answered decides:
    201/202 sent; 404/410 the subscription is gone (deleted, the notice dropped);
    429, 5xx and network errors retried later with back-off."""
    # Imported here, not at the top: pywebpush brings requests and aiohttp, about 0.3 s
    # of every process's start (a web server's, each piped mail's), and only the
    # scheduler's sending needs them.
    import requests
    from pywebpush import WebPushException, webpush

    sub = db.session.get(PushSubscription, notice.subscription_id) \
        if notice.subscription_id is not None else None
    if sub is None:
        return Outcome.drop("the device's subscription is gone")
    try:  # again now: a setting may have changed, and a name's addresses may have
        devices.check_endpoint(sub.endpoint, resolve=True)
    except Invalid as exc:
        return Outcome.drop(f"refused endpoint: {exc.message}")
    except OSError as exc:  # the name does not resolve now: maybe later
        return Outcome.retry(f"{exc.__class__.__name__}: {exc}"[:300])
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(sub.endpoint))
    claims = {"sub": devices.vapid_subject(), "aud": origin,
              "exp": int(time.time()) + VAPID_EXPIRY}
    config = current_app.config
    try:
        response = webpush(
            {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
            data=notice.payload, vapid_private_key=devices.vapid(), vapid_claims=claims,
            content_encoding="aes128gcm", ttl=int(config.get("PUSH_TTL_SECONDS", 86400)),
            timeout=float(config.get("PUSH_TIMEOUT", 10)), requests_session=_session(),
            headers={"Topic": notice.topic or topic(notice.game_id or 0),
                     "Urgency": URGENCY.get(notice.kind, "normal")})
    except WebPushException as exc:
        return _refused(sub, exc)
    except requests.TooManyRedirects:
        return Outcome.drop("the push service redirected (a push service never does)")
    except requests.RequestException as exc:
        return Outcome.retry(f"{exc.__class__.__name__}: {exc}"[:300])
    sub.last_sent_at = utcnow()  # committed with the notice's outcome (queue._settle)
    return Outcome.sent(f"HTTP {response.status_code}")


def _refused(sub: PushSubscription, exc: WebPushException) -> Outcome:
    status = exc.response.status_code if exc.response is not None else None
    if status in (404, 410):  # RFC 8030 section 7.3: the subscription has expired
        devices.drop(sub.id)  # committed with the notice's outcome (queue._settle)
        return Outcome.drop(f"HTTP {status}: the subscription is gone; removed")
    if status is None or status == 429 or status >= 500:
        return Outcome.retry(f"HTTP {status}" if status else str(exc)[:300])
    # 400, 401, 403, 413: this notice will never go (a bad key or a payload too large)
    return Outcome.drop(f"HTTP {status}: {exc.response.text[:200]}")


_local = threading.local()


def _session() -> requests.Session:
    """This thread's HTTP session: it keeps the connection to a push service open from one
    notice to the next (most devices share a few push services). It follows no
    redirect: a push service answers, it never redirects, and a forged endpoint must
    not bounce the service's request into a private network."""
    import requests  # as in send(), which alone calls this

    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = requests.Session()
        session.max_redirects = 0
    return session

