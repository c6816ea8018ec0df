"""A browser's push subscription as PushManager.subscribe gives it, for the web tests.

The keys are real (a fresh P-256 key pair and a random auth secret, as a browser
makes them), so the service accepts the subscription as it would a browser's; the
endpoint is a made-up push service's that nothing ever sends to in these tests.
"""

from __future__ import annotations

import base64
import secrets

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def push_subscription(endpoint: str | None = None) -> dict:
    """``{endpoint, keys: {p256dh, auth}}``, the JSON of a browser's PushSubscription."""
    public = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"endpoint": endpoint or f"https://push.example.net/wpush/{secrets.token_hex(12)}",
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(secrets.token_bytes(16))}}
