"""A real SMTP sink for the tests, and the settings of an app that sends to it."""

from __future__ import annotations

import contextlib
import email
import os
import socket
import threading
from email.message import EmailMessage
from email.policy import default as default_policy

from aiosmtpd.controller import Controller
from app_cache import restore, session_app

from vpsleuth.extensions import db

DATABASES = [d.strip() for d in
             os.environ.get("VPSLEUTH_TEST_DATABASES", "sqlite,postgresql").split(",")
             if d.strip()]
REPLY_ADDRESS = "vpsleuth@sleuth.test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sink:
    """A real SMTP server on 127.0.0.1 that keeps every message it receives."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.received: list[tuple[list[str], EmailMessage]] = []
        self._lock = threading.Lock()
        self._controller: Controller | None = None
        self.refuse: dict[str, str] = {}  # address -> SMTP reply to RCPT TO, e.g. "550 ..."

    async def handle_RCPT(self, server, session, envelope, address, options) -> str:  # noqa: N802
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 (aiosmtpd API)
        message = email.message_from_bytes(envelope.content, policy=default_policy)
        with self._lock:
            self.received.append((list(envelope.rcpt_tos), message))
        return "250 OK"

    def start(self) -> None:
        """Listen (again) on the sink's port; nothing happens if it listens already."""
        if self._controller is None:
            self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
            self._controller.start()

    def reset(self) -> None:
        """Forget what was received and refused, and listen: the state a new test expects."""
        self.start()
        with self._lock:
            self.received.clear()
        self.refuse.clear()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    @property
    def messages(self) -> list[EmailMessage]:
        with self._lock:
            return [m for _, m in self.received]

    def message_ids(self) -> list[str]:
        return [m["Message-ID"] for m in self.messages]

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for rcpt, m in self.received if address in rcpt]


def mail_config(port: int) -> dict:
    """The mail settings of an app that sends to 127.0.0.1:port."""
    return {"MAIL_SERVER": "127.0.0.1", "MAIL_PORT": port,
            "MAIL_SUPPRESS_SEND": False, "MAIL_TIMEOUT": 5, "REPLY_ADDRESS": REPLY_ADDRESS,
            "MAIL_DEFAULT_SENDER": f"VP-Sleuth <{REPLY_ADDRESS}>",
            "BASE_URL": "https://sleuth.test"}


@contextlib.contextmanager
def mailing_to(app, sink):
    """``app`` on its database, sending its mail to ``sink``, in a context of its own."""
    mailing = session_app(app.config["SQLALCHEMY_DATABASE_URI"], app.config["DATABASE_KIND"],
                          **mail_config(sink.port))
    mailing.instance_path = app.instance_path
    with mailing.app_context():
        try:
            yield mailing
        finally:
            db.session.remove()
            restore(mailing)
