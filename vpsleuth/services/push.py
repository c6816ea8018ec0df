"""Web Push (RFC 8030): a person's devices, and the VAPID key the service signs with.

A device is the browser's PushSubscription (its push service's endpoint and the
keys a payload is encrypted to, RFC 8291), kept under the person's address, as a
web session is. The VAPID key pair (RFC 8292) is made once and kept, so every
process and every restart signs with the same key and the browsers' subscriptions,
which are bound to its public half, stay good: the operator's VAPID_PRIVATE_KEY if
set, else one generated on first use and kept in the database (SiteKey).

What goes to the devices is the notices channel's (vpsleuth/notices/push.py).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
import socket
from functools import lru_cache
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from flask import current_app
from py_vapid import Vapid02
from sqlalchemy import delete, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..extensions import db
from ..i18n import N_
from ..models import Notice, Player, PushSubscription, SiteKey
from .addresses import carried
from .errors import Invalid

__all__ = ["SITE_KEY", "check_endpoint", "devices", "drop", "export", "forget", "remove",
           "subscribe", "vapid", "vapid_kept_where", "vapid_public_key", "vapid_subject"]

SITE_KEY = "vapid_private"
P256DH_BYTES = 65  # an uncompressed P-256 point (RFC 8291 section 3.1)
AUTH_BYTES = 16  # the authentication secret (RFC 8291 section 3.2)
LOOPBACK_HOSTS = {"127.0.0.1", "::1", "[::1]"}
_UNCOMPRESSED = (serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)

BAD_SUBSCRIPTION = N_("the browser's push subscription could not be read; please switch "
                      "notifications off and on again on this device")
BAD_ENDPOINT = N_("the browser's push service address must start with https://")
BAD_HOST = N_("the browser's push service address points to a private network; "
              "it cannot receive notifications from here")
BAD_KEYS = N_("the browser's push keys are not valid; please switch notifications off "
              "and on again on this device")
TOO_MANY = N_("you have notifications switched on on {limit} devices, the most there "
              "may be; remove one you no longer use first")


# --- the VAPID key -------------------------------------------------------------------

def vapid() -> Vapid02:
    """The service's VAPID key pair: the operator's, or the one made and kept here."""
    configured = current_app.config.get("VAPID_PRIVATE_KEY")
    if configured:
        return _load(configured)
    return _load(_kept_key())


def vapid_public_key() -> str:
    """The application server key for PushManager.subscribe: the public key as an
    uncompressed P-256 point, base64url without padding."""
    point = vapid().public_key.public_bytes(*_UNCOMPRESSED)
    return _b64url(point)


def vapid_subject() -> str:
    """The contact in every VAPID claim (``sub``): VAPID_SUBJECT, else mailto: the
    service's sender address, for the push services to reach the operator."""
    subject = current_app.config.get("VAPID_SUBJECT")
    if subject:
        return subject
    sender = current_app.config.get("MAIL_DEFAULT_SENDER") or "vpsleuth@localhost"
    if isinstance(sender, tuple):  # Flask-Mail allows (name, address)
        sender = sender[1]
    found = re.search(r"<([^>]+)>", sender)
    return f"mailto:{found.group(1) if found else sender.strip()}"


def vapid_kept_where() -> str:
    """Where the key comes from, for `vpsleuth check`: ``setting``, ``database`` or
    ``none`` (not made yet: it is on first use)."""
    if current_app.config.get("VAPID_PRIVATE_KEY"):
        return "setting"
    return "database" if db.session.get(SiteKey, SITE_KEY) is not None else "none"


@lru_cache(maxsize=8)
def _load(private: str) -> Vapid02:
    """The key pair of a private key's text (parsed once per process: a send needs it for
    every notice)."""
    text = private.strip()
    try:
        if text.startswith("-----BEGIN"):
            return Vapid02.from_pem(text.encode())
        return Vapid02.from_string(text)  # raw 32 bytes or DER, base64url
    except (ValueError, TypeError, binascii.Error) as exc:
        raise RuntimeError(f"VAPID_PRIVATE_KEY cannot be read as a P-256 private key "
                           f"(base64url or PEM): {exc.__class__.__name__}") from exc


def _kept_key() -> str:
    """The key kept in the database, made on first use.

    Made and committed in a session of its own: the caller's transaction may be a
    page's read or a send, and the key must outlive it whatever becomes of it. Two
    processes making one at the same moment: the primary key lets one win, and the
    other reads the winner's.
    """
    row = db.session.get(SiteKey, SITE_KEY)
    if row is not None:
        return row.value
    private = ec.generate_private_key(ec.SECP256R1())
    raw = private.private_numbers().private_value.to_bytes(32, "big")
    with Session(db.engine) as own:
        own.add(SiteKey(name=SITE_KEY, value=_b64url(raw)))
        try:
            own.commit()
        except IntegrityError:
            own.rollback()
    with Session(db.engine) as own:
        return own.get(SiteKey, SITE_KEY).value


# --- devices ---------------------------------------------------------------------------

def subscribe(email: str, subscription: dict, label: str = "") -> PushSubscription:
    """Keep the browser's PushSubscription (``{endpoint, keys: {p256dh, auth}}``) as one
    of ``email``'s devices; in the caller's transaction (it commits).

    The same endpoint again updates its row, and moves it to ``email``: a browser
    has one endpoint, whoever signs in on it last gets its notices. Raises Invalid
    with a message for the person (a bad endpoint or keys, too many devices).
    """
    email = email.strip().lower()
    if not isinstance(subscription, dict):
        raise Invalid(BAD_SUBSCRIPTION)
    endpoint, keys = subscription.get("endpoint"), subscription.get("keys")
    if not isinstance(endpoint, str) or not isinstance(keys, dict):
        raise Invalid(BAD_SUBSCRIPTION)
    endpoint = endpoint.strip()
    check_endpoint(endpoint)
    p256dh = _key(keys.get("p256dh"), P256DH_BYTES)
    auth = _key(keys.get("auth"), AUTH_BYTES)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64url(p256dh))
    except ValueError:
        raise Invalid(BAD_KEYS) from None
    label = _clean_label(label)
    row = db.session.scalar(select(PushSubscription).where(
        PushSubscription.endpoint == endpoint))
    if row is None or row.email != email:
        limit = int(current_app.config.get("PUSH_MAX_DEVICES", 10))
        if len(devices(email)) >= limit:
            raise Invalid(TOO_MANY, limit=limit)
    if row is None:
        row = PushSubscription(endpoint=endpoint)
        db.session.add(row)
    row.email, row.p256dh, row.auth = email, p256dh, auth
    row.label = label or row.label or ""
    db.session.flush()
    return row


def devices(email: str) -> list[PushSubscription]:
    """The person's devices, oldest first."""
    return list(db.session.scalars(select(PushSubscription).where(
        PushSubscription.email == email.strip().lower()).order_by(PushSubscription.id)))


def remove(email: str, subscription_id: int) -> bool:
    """Remove one of the person's devices; False when they have none of that id (another
    person's device is not found: it is not theirs to remove). In the caller's
    transaction."""
    row = db.session.get(PushSubscription, subscription_id)
    if row is None or row.email != email.strip().lower():
        return False
    _delete([row.id])
    return True


def drop(subscription_id: int) -> None:
    """Delete a device the push service says is gone (404, 410), with what waits for it;
    in the caller's transaction."""
    _delete([subscription_id])


def check_endpoint(endpoint: str, resolve: bool = False) -> None:
    """Refuse an endpoint the service must not POST to: not https (http to 127.0.0.1
    only with PUSH_ALLOW_LOOPBACK, for the tests' push service), or a private,
    loopback or link-local address, where a forged subscription would aim the
    service's requests into the operator's own network. ``resolve``: look the name
    up too (before a send; OSError if it does not resolve)."""
    if len(endpoint) > 2000:
        raise Invalid(BAD_SUBSCRIPTION)
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        parts.port  # noqa: B018  (raises ValueError for a bad port)
    except ValueError:
        raise Invalid(BAD_ENDPOINT) from None
    loopback_ok = bool(current_app.config.get("PUSH_ALLOW_LOOPBACK"))
    if loopback_ok and parts.scheme == "http" and host in LOOPBACK_HOSTS:
        return
    if parts.scheme != "https" or not host or parts.username or parts.password:
        raise Invalid(BAD_ENDPOINT)
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        raise Invalid(BAD_HOST)
    try:
        addresses = [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:  # a name: the push services' are public ones
        if not resolve:
            return
        addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in
                     socket.getaddrinfo(host, parts.port or 443, proto=socket.IPPROTO_TCP)]
    if any(not one.is_global for a in addresses for one in carried(a)):
        raise Invalid(BAD_HOST)


def _key(value: object, length: int) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_-]+=*", value):
        raise Invalid(BAD_KEYS)
    try:
        raw = _unb64url(value)
    except (binascii.Error, ValueError):
        raise Invalid(BAD_KEYS) from None
    if len(raw) != length:
        raise Invalid(BAD_KEYS)
    return _b64url(raw)


def _clean_label(label: str) -> str:
    """The device's name as the browser page gave it, without control characters."""
    text = re.sub(r"[\x00-\x1f\x7f]", " ", str(label or "")).strip()
    return re.sub(r"\s+", " ", text)[:120]


def _delete(ids: list[int]) -> None:
    """Delete subscriptions and their notices still waiting (they go nowhere now)."""
    if not ids:
        return
    db.session.execute(delete(Notice).where(Notice.subscription_id.in_(ids),
                                            Notice.status == "pending"))
    db.session.execute(delete(PushSubscription).where(PushSubscription.id.in_(ids)))


# --- leaving, and the personal-data export ----------------------------------------------

def forget(email: str, *, seats: list[Player], whole: bool = True) -> None:
    """events.person_leaving: the person's devices go, and every push notice of their
    seats or devices, sent or waiting (their words were for them)."""
    ids = list(db.session.scalars(select(PushSubscription.id).where(
        func.lower(PushSubscription.email) == email.lower())))
    seat_ids = [p.id for p in seats]
    db.session.execute(delete(Notice).where(Notice.channel == "push", or_(
        Notice.subscription_id.in_(ids), Notice.player_id.in_(seat_ids))))
    _delete(ids)


def export(email: str, *, seats: list[Player], whole: bool) -> dict[str, list[dict]]:
    """events.personal_data_asked: the person's devices, for the whole account (they are
    the address's, not a seat's): where each sends to and its name, not the keys; and
    the push notices of the seats the export covers."""
    rows = devices(email) if whole else []
    seat_ids = [p.id for p in seats]
    notices = db.session.scalars(select(Notice).where(
        Notice.channel == "push", Notice.player_id.in_(seat_ids)).order_by(Notice.id))
    return {"push_subscription": [
        {"id": s.id, "push_service": _origin(s.endpoint), "label": s.label,
         "created_at": s.created_at.isoformat(),
         "last_sent_at": s.last_sent_at.isoformat() if s.last_sent_at else None}
        for s in rows],
        "notice": [{"id": n.id, "kind": n.kind, "game_id": n.game_id,
                    "player_id": n.player_id, "device_id": n.subscription_id,
                    "payload": n.payload, "status": n.status,
                    "created_at": n.created_at.isoformat(),
                    "sent_at": n.sent_at.isoformat() if n.sent_at else None}
                   for n in notices]}


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


# --- base64url, as Web Push writes keys ---------------------------------------------------

def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64url(text: str) -> bytes:
    text = text.rstrip("=")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
