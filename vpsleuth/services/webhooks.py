"""A game's chat webhook: its GM sets or removes it; where it may point is decided here.

The address lets anyone who holds it post to the group's chat, so it is a secret of
sorts: the GM's pages show it masked (``masked``), the audit log records only its
host, and no log line carries it. It must be https to a host whose every address is
on the public internet: a GM must not make the service post into the operator's own
network (a cloud's metadata service at 169.254.169.254, a database on 10.0.0.5, an
admin page on localhost). ``check_address`` resolves the host and is asked again at
every send (notices/webhook.py), since a DNS answer may change after it was set.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from flask import current_app
from sqlalchemy import select, update

from ..extensions import db
from ..i18n import N_
from ..models import WEBHOOK_FORMATS, Game, GameWebhook, Notice
from .addresses import carried
from .errors import Invalid, WrongState
from .games import audit

MAX_URL = 2000  # GameWebhook.url's length
LOOPBACK_TEST_HOST = "127.0.0.1"  # WEBHOOK_ALLOW_LOOPBACK lets http://127.0.0.1:PORT in
# Why an address is refused, by the first of the ``ipaddress`` properties it has.
_REFUSED = (
    ("is_loopback", N_("{host} leads to {address}, a loopback address of this server; a "
                       "webhook must lead to a chat on the public internet")),
    ("is_unspecified", N_("{host} leads to {address}, an unspecified address; a webhook "
                          "must lead to a chat on the public internet")),
    ("is_link_local", N_("{host} leads to {address}, a link-local address; a webhook must "
                         "lead to a chat on the public internet")),
    ("is_multicast", N_("{host} leads to {address}, a multicast address; a webhook must "
                        "lead to a chat on the public internet")),
    ("is_reserved", N_("{host} leads to {address}, a reserved address; a webhook must "
                       "lead to a chat on the public internet")),
    ("is_private", N_("{host} leads to {address}, an address of a private network; a "
                      "webhook must lead to a chat on the public internet")),
)
_NOT_GLOBAL = N_("{host} leads to {address}, which is not an address on the public "
                 "internet; a webhook must lead to a chat there")


@dataclass(frozen=True)
class Target:
    """Where a checked webhook address leads: what to connect to, and as what."""

    scheme: str  # https, or http for the tests' loopback receiver
    host: str  # the name for TLS and the Host header
    port: int
    address: str  # the checked IP the connection goes to (pinned: no second lookup)
    path: str  # path and query


def of(game: Game) -> GameWebhook | None:
    """The game's webhook, or None."""
    return db.session.scalar(select(GameWebhook).where(GameWebhook.game_id == game.id))


def masked(url: str) -> str:
    """The address as the GM sees it after saving: scheme, host and the last 4 characters."""
    parts = urlsplit(url)
    tail = url[-4:] if len(url) > len(f"{parts.scheme}://{parts.netloc}") + 8 else ""
    return f"{parts.scheme}://{parts.netloc}/…{tail}"


def check_format(fmt: str) -> str:
    """Refuse a chat format that is not one of WEBHOOK_FORMATS."""
    if fmt not in WEBHOOK_FORMATS:
        raise Invalid(N_("the chat format is one of {formats}, not {format}"),
                      formats=", ".join(WEBHOOK_FORMATS), format=repr(fmt))
    return fmt


def check_address(url: str) -> Target:
    """The webhook address checked and resolved, or Invalid saying why it is refused.

    https only, no user name or password, a host name whose every address is public
    (literal IPs and their odd forms, 2130706433 or 0177.0.0.1, are resolved too and
    checked alike). WEBHOOK_ALLOW_LOOPBACK (tests only) lets http://127.0.0.1:PORT in.
    """
    if len(url) > MAX_URL:
        raise Invalid(N_("the webhook address is longer than {n} characters"), n=MAX_URL)
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        raise Invalid(N_("the webhook address may not contain spaces or control characters"))
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        raise Invalid(N_("the webhook address has a port that is not a number from 1 to "
                         "65535")) from None
    host = (parts.hostname or "").lower()
    loopback_test = (current_app.config.get("WEBHOOK_ALLOW_LOOPBACK")
                     and scheme in ("http", "https") and host == LOOPBACK_TEST_HOST
                     and port is not None and parts.username is None)
    if scheme != "https" and not loopback_test:
        raise Invalid(N_("the webhook address must start with https://"))
    if "@" in parts.netloc:
        raise Invalid(N_("the webhook address may not contain a user name or password"))
    if not host:
        raise Invalid(N_("the webhook address has no host name"))
    if not host.isascii():
        raise Invalid(N_("write the host name of the webhook address in ASCII (as "
                         "punycode, xn--...)"))
    if port == 0:
        raise Invalid(N_("the webhook address has a port that is not a number from 1 to "
                         "65535"))
    port = port or (443 if scheme == "https" else 80)
    address = _public_address(host, port, allow_loopback=bool(loopback_test))
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme, host, port, address, path)


def _public_address(host: str, port: int, *, allow_loopback: bool) -> str:
    """The first address of ``host``, once every one of them is checked to be public."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, ValueError):
        raise Invalid(N_("the host name {host} of the webhook address could not be found"),
                      host=host) from None
    addresses = [info[4][0] for info in found]
    for text in addresses:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
        if allow_loopback and ip == ipaddress.ip_address(LOOPBACK_TEST_HOST):
            continue
        _refuse_unless_public(host, ip)
    if not addresses:
        raise Invalid(N_("the host name {host} of the webhook address could not be found"),
                      host=host)
    return addresses[0]


def _refuse_unless_public(host: str, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> None:
    """Invalid unless ``ip`` (and any IPv4 address it carries) is a public one."""
    for one in carried(ip):  # the IPv4 address it carries, said first
        for prop, message in _REFUSED:
            if getattr(one, prop):
                raise Invalid(message, host=host, address=str(one))
        if not one.is_global:  # shared address space (100.64/10) and the like
            raise Invalid(_NOT_GLOBAL, host=host, address=str(one))


def set_webhook(game: Game, url: str, fmt: str, *, actor: str) -> GameWebhook:
    """Give the game a chat webhook, or change it (the GM's; audited with its host only)."""
    if game.state == "finished":
        raise WrongState(N_("'{game}' has ended"), game=game.name)
    url = url.strip()
    check_format(fmt)
    target = check_address(url)
    hook = of(game)
    if hook is None:
        hook = GameWebhook(game_id=game.id, url=url, format=fmt, last_result="")
        db.session.add(hook)
    elif (hook.url, hook.format) != (url, fmt):
        hook.url, hook.format = url, fmt
        hook.last_at, hook.last_ok, hook.last_result = None, None, ""
    audit(game, actor, "set_webhook", format=fmt, host=target.host)
    db.session.commit()
    return hook


def clear_webhook(game: Game, *, actor: str) -> bool:
    """Remove the game's webhook and drop its notices not sent yet; False if it had none."""
    hook = of(game)
    if hook is None:
        return False
    audit(game, actor, "clear_webhook", format=hook.format, host=urlsplit(hook.url).hostname)
    # Its notices not sent yet go with it: a webhook set later (maybe with the same id,
    # SQLite reuses them) must never post what was meant for this one.
    db.session.execute(update(Notice).where(Notice.webhook_id == hook.id,
                                            Notice.status == "pending")
                       .values(status="dropped", webhook_id=None,
                               last_error="the webhook was removed")
                       .execution_options(synchronize_session=False))
    db.session.delete(hook)
    db.session.commit()
    return True


def record_delivery(hook: GameWebhook, ok: bool, result: str, now: datetime) -> None:
    """Keep the last delivery's result for the GM (the caller commits)."""
    hook.last_at, hook.last_ok, hook.last_result = now, ok, result[:300]
