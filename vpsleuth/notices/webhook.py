"""The chat webhook channel: it listens to the services' signals and posts to a game's chat.

In the transaction of what happened, a receiver only queues a Notice (channel
"webhook") with the chat's own JSON body, if the game has a webhook; the scheduler's
send-notices job hands it to ``send``, so a chat that is slow, down or gone never
delays a round. A report is announced exactly when its mail goes (as
mail/listeners.py decides), so once.

``send`` posts with the standard library's http.client rather than requests: the
connection goes to the very address ``services.webhooks.check_address`` has just
checked (TLS still verified against the host name), so a DNS answer that changes
between the check and the connect cannot lead it into a private network; no
redirect is ever followed; each wait on the network is bounded by
WEBHOOK_TIMEOUT_SECONDS. The webhook's address never goes into a log line.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import ssl
from datetime import datetime

from flask import Flask, current_app

from ..extensions import db
from ..i18n import N_
from ..models import Game, GameStory, GameWebhook, Notice, Round, utcnow
from ..services import events, webhooks
from ..services.errors import Invalid
from . import chat, queue, webhook_words
from .chat import Message

log = logging.getLogger(__name__)
MAX_ANSWER = 65536  # bytes of a chat's answer read (only its status matters)


def _queue(game: Game, kind: str, build) -> Notice | None:
    """Queue ``build()``'s message for the game's chat, if it has one (never commits)."""
    hook = webhooks.of(game)
    if hook is None:
        return None
    message: Message | None = build()
    if message is None:
        return None
    return queue.add("webhook", kind, {"format": hook.format,
                                       "body": chat.body(message, hook.format)},
                     game_id=game.id, webhook_id=hook.id)


def queue_test(game: Game) -> Notice:
    """Queue a test message to the game's chat (the caller commits); Invalid without one."""
    notice = _queue(game, "test", lambda: webhook_words.test(game))
    if notice is None:
        raise Invalid(N_("'{game}' has no chat webhook yet: save its address first"),
                      game=game.name)
    return notice


def _report(game: Game, round_: Round) -> None:
    kind = "game_ended" if game.state == "finished" else "report"
    _queue(game, kind, lambda: webhook_words.report(game, round_))


def round_opened(game: Game, *, round_: Round) -> None:
    _queue(game, "round_opened", lambda: webhook_words.round_opened(game, round_))


def round_resolved(game: Game, *, round_: Round, ended: bool, report_waits: bool) -> None:
    if not report_waits:  # else it goes with the story: story_told, as the mail does
        _report(game, round_)


def story_told(game: Game, *, story: GameStory, round_: Round | None) -> None:
    if story.final_report and round_ is not None:  # the final report waited for it
        _report(game, round_)


def story_overdue(game: Game, *, round_: Round) -> None:
    _report(game, round_)


RECEIVERS = {
    events.round_opened: round_opened,
    events.round_resolved: round_resolved,
    events.story_told: story_told,
    events.story_overdue: story_overdue,
}


def init_app(app: Flask) -> None:
    """Connect the webhook channel to the services' signals (idempotent, for every app)."""
    for signal, receiver in RECEIVERS.items():
        signal.connect(receiver, weak=False)


class _Pinned(http.client.HTTPSConnection):
    """An HTTPS connection to a checked address, TLS verified against the host name."""

    def __init__(self, target: webhooks.Target, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout,
                         context=ssl.create_default_context())
        self.address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class _PinnedPlain(http.client.HTTPConnection):
    """Plain HTTP to a checked address: only the tests' receiver on 127.0.0.1."""

    def __init__(self, target: webhooks.Target, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout)
        self.address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


def post(target: webhooks.Target, body: dict, timeout: float) -> int:
    """POST ``body`` as JSON to ``target``; the HTTP status (redirects not followed)."""
    kind = _Pinned if target.scheme == "https" else _PinnedPlain
    conn = kind(target, timeout)
    try:
        conn.request("POST", target.path, body=json.dumps(body).encode(),
                     headers={"Content-Type": "application/json",
                              "User-Agent": "vpsleuth-webhook"})
        answer = conn.getresponse()
        answer.read(MAX_ANSWER)
        return answer.status
    finally:
        conn.close()


def send(notice: Notice) -> queue.Outcome:
    """Post one notice to its game's chat: 2xx sent; 429, 5xx and network trouble tried
    again later; any other answer, or an address now refused, dropped. The result is
    kept on the webhook for the GM."""
    hook = db.session.get(GameWebhook, notice.webhook_id) if notice.webhook_id else None
    if hook is None or hook.game_id != notice.game_id:
        return queue.Outcome.drop("the webhook was removed")
    data = json.loads(notice.payload)
    if data.get("format") != hook.format:
        return queue.Outcome.drop("the webhook's chat format changed since it was queued")
    now = utcnow()
    try:
        target = webhooks.check_address(hook.url)
    except Invalid as exc:  # DNS now leads somewhere refused: never post there
        return _result(hook, notice, False, exc.message, queue.Outcome.drop(exc.message), now)
    timeout = float(current_app.config.get("WEBHOOK_TIMEOUT_SECONDS") or 5)
    try:
        status = post(target, data["body"], timeout)
    except TimeoutError:
        said = f"no answer within {timeout:g} seconds"
        return _result(hook, notice, False, said, queue.Outcome.retry(said), now)
    except (OSError, http.client.HTTPException) as exc:  # refused, reset, TLS, bad answer
        said = f"{exc.__class__.__name__}: {exc}"
        return _result(hook, notice, False, said, queue.Outcome.retry(said), now)
    said = f"HTTP {status}"
    if 200 <= status < 300:
        return _result(hook, notice, True, said, queue.Outcome.sent(said), now)
    if status == 429 or status >= 500:
        return _result(hook, notice, False, said, queue.Outcome.retry(said), now)
    if 300 <= status < 400:
        said += " (redirects are not followed)"
    return _result(hook, notice, False, said, queue.Outcome.drop(said), now)


def _result(hook: GameWebhook, notice: Notice, ok: bool, said: str, outcome: queue.Outcome,
            now: datetime) -> queue.Outcome:
    webhooks.record_delivery(hook, ok, said, now)
    db.session.commit()
    log.info("webhook notice %d (%s) of game %d: %s", notice.id, notice.kind, hook.game_id,
             said)
    return outcome
