"""A chat's incoming-webhook endpoint on 127.0.0.1, as Discord, Slack and the others run one.

It keeps every POST (path, headers, JSON body) and answers what the test tells it:
204 No Content by default, any status (``answer = 503``), or nothing at all
(``answer = "hang"``: the connection is accepted and held open, never answered,
until the test lets it go or the receiver stops). It counts the connections it
accepted, so a test can tell that none was opened while something else ran.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOLD_AT_MOST = 30  # seconds a hanging answer holds a connection, should a test forget it


@dataclass
class Received:
    path: str
    headers: dict
    body: dict


class ChatReceiver:
    """``with ChatReceiver() as chat``: ``chat.url("/hook")``, ``chat.received``."""

    def __init__(self):
        self.received: list[Received] = []
        self.answer: int | str = 204
        self.connections = 0
        self.release = threading.Event()
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def setup(self):
                with receiver.lock:
                    receiver.connections += 1
                super().setup()

            def do_POST(self):  # noqa: N802  (http.server's name)
                size = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(size)
                if receiver.answer == "hang":
                    receiver.release.wait(HOLD_AT_MOST)
                    return
                with receiver.lock:
                    receiver.received.append(Received(self.path, dict(self.headers),
                                                      json.loads(raw)))
                self.send_response(int(receiver.answer))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.server.server_port}{path}"

    def reset(self, answer: int | str = 204) -> None:
        """Forget what came, answer ``answer`` from now on (a held connection is let go)."""
        self.release.set()
        with self.lock:
            self.received.clear()
            self.connections = 0
        self.answer = answer
        self.release = threading.Event()

    def __enter__(self) -> ChatReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
