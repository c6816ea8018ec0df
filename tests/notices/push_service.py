"""A local push service (RFC 8030) on 127.0.0.1 and browser-like devices subscribed to it.

The service accepts a push message as POST on a subscription's own path, keeps the
request (headers and the encrypted body) and answers 201 Created with a Location,
as a real push service does, or the status a test tells it for a device (410 Gone,
503 while it is "down"). A Device is what a browser holds: a P-256 key pair and an
auth secret of its own, made here with `cryptography`; it checks the VAPID
authorization (RFC 8292) and decrypts what it received (RFC 8291, aes128gcm) with
http_ece, the way a browser would.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Push:
    """One push message as the service received it."""

    token: str
    headers: dict[str, str]  # lower-case names
    body: bytes


class PushService:
    """The push service: ``answers[token]`` is the status for that device (201 if unset)."""

    def __init__(self) -> None:
        self.received: list[Push] = []
        self.answers: dict[str, int] = {}
        self.last_at = 0.0  # time.monotonic() of the last push kept
        self._lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keeps a sender's connection open, as push services do

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                token = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status = service.answers.get(token, 201)
                if status == 201:
                    with service._lock:
                        service.received.append(Push(
                            token, {k.lower(): v for k, v in self.headers.items()}, body))
                        service.last_at = time.monotonic()
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", f"/message/{secrets.token_hex(4)}")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> PushService:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def reset(self) -> None:
        with self._lock:
            self.received.clear()
            self.last_at = 0.0
        self.answers.clear()

    def to(self, device: Device) -> list[Push]:
        with self._lock:
            return [p for p in self.received if p.token == device.token]


class Device:
    """A browser's push subscription: its own key pair and auth secret."""

    def __init__(self, service: PushService) -> None:
        self.service = service
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.token = secrets.token_urlsafe(12)
        self.endpoint = f"{service.origin}/push/v2/{self.token}"

    def subscription(self) -> dict:
        """The PushSubscription JSON a browser's PushManager.subscribe() gives."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}

    def received(self) -> list[Push]:
        return self.service.to(self)

    def read(self, push: Push) -> dict:
        """Decrypt a push message as the browser does and parse its JSON."""
        assert push.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(push.body, private_key=self.key, auth_secret=self.auth,
                                 version="aes128gcm")
        return json.loads(plain.decode("utf-8"))


def check_vapid(push: Push, audience: str, public_key: str) -> dict:
    """The push's VAPID authorization (RFC 8292): ``vapid t=JWT, k=KEY``, with ``k`` the
    service's public key and the JWT signed by it (ES256), for ``audience``, expiring
    in the future and within 24 hours. Returns the claims."""
    scheme, _, params = push.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    head, body, signature = fields["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64  # JWS ES256: r || s, 32 bytes each
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(unb64url(body))
    assert claims["aud"] == audience
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert claims["sub"].startswith(("mailto:", "https://"))
    return claims
