"""The in-process test server closes an answer when the client hangs up (tests/served.py)."""

from __future__ import annotations

import socket
import struct
import threading

from flask import Flask, Response
from served import served

WAIT = 10  # seconds, for each step


def test_an_answer_is_closed_when_the_client_resets_the_connection_while_it_is_sent():
    app = Flask(__name__)
    hung_up, closed = threading.Event(), threading.Event()

    class Answer:
        """A body that says when it was closed, as a static file's wrapper closes its file."""

        def __iter__(self):
            yield b"x" * 1000
            # The last step ends only once the client has gone: werkzeug then
            # meets the reset in the read it makes after the body.
            assert hung_up.wait(WAIT)

        def close(self):
            closed.set()

    @app.get("/answer")
    def answer():
        # A known length, as a static file has: nothing is written after the body.
        return Response(Answer(), direct_passthrough=True, headers={"Content-Length": "1000"})

    with served(app) as base:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as client:
            client.sendall(b"GET /answer HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            received = b""
            while not received.endswith(b"x" * 1000):  # the whole body, so it was written
                chunk = client.recv(4096)
                assert chunk, received
                received += chunk
            assert received.startswith(b"HTTP/1.1 200")
            # Linger 0: closing sends a reset, as a browser cancelling a fetch may.
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        hung_up.set()
        assert closed.wait(WAIT), "the answer was left open after the client hung up"
