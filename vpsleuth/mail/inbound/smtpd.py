"""A small SMTP receiver (aiosmtpd) that feeds the pipeline (source "smtp").

Meant to sit behind the site's MTA, which relays mail for the reply address to
it, or to receive directly on a host of its own. Like an MTA's final delivery,
it records the envelope in the stored message: a Return-Path header with MAIL
FROM (an empty one marks a bounce) and a Delivered-To header per recipient (so
the reply key is found even when the To header does not carry it).
"""

from __future__ import annotations

import asyncio
import logging

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import Envelope, Session
from flask import Flask

from .pipeline import receive
from .store import StoreError

log = logging.getLogger(__name__)
MAX_SIZE = 32 * 1024 * 1024  # refused at the SMTP level beyond this (552)


def with_envelope(content: bytes, mail_from: str | None, rcpt_tos: list[str]) -> bytes:
    """The message as final delivery stores it: Return-Path and Delivered-To prepended."""
    def clean(addr: str | None) -> str:
        return "".join(ch for ch in (addr or "") if ch not in "\r\n<>")

    lines = [f"Return-Path: <{clean(mail_from)}>"]
    lines += [f"Delivered-To: {clean(rcpt)}" for rcpt in rcpt_tos]
    return ("\r\n".join(lines) + "\r\n").encode("utf-8", "replace") + content


class InboundHandler:
    """aiosmtpd handler: each DATA is stored and processed in a worker thread."""

    def __init__(self, app: Flask):
        self.app = app

    async def handle_DATA(self, server, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or envelope.content or b""
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        raw = with_envelope(content, envelope.mail_from, list(envelope.rcpt_tos))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self.deliver, raw)

    def deliver(self, raw: bytes) -> str:
        """Store and process one message; the SMTP reply for the client."""
        with self.app.app_context():
            try:
                received = receive(raw, "smtp")
            except StoreError as exc:
                log.warning("SMTP message not stored: %s", exc)
                if exc.temporary:
                    return "451 4.3.0 Temporarily unable to store the message; try again later"
                return "554 5.6.0 Message cannot be stored"
        return f"250 2.0.0 Stored as inbound message {received.id}"


def controller(app: Flask, host: str = "127.0.0.1", port: int = 2525) -> Controller:
    """An aiosmtpd Controller (not started) serving the pipeline on host:port."""
    return Controller(InboundHandler(app), hostname=host, port=port,
                      data_size_limit=MAX_SIZE, enable_SMTPUTF8=True)
