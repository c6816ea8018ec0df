"""The app served for real in a thread of the test process (werkzeug, threaded).

Every test that talks HTTP to an in-process server uses ``served``: the browser
tests, the one-click unsubscribe POSTs, the turn burst and the database restart.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from werkzeug.serving import WSGIRequestHandler, make_server

ANSWER = "tests.served.answer"


class _ClosingHandler(WSGIRequestHandler):
    """werkzeug's handler, closing the answer when the client hung up.

    When a browser drops a connection (it cancels an icon's fetch as the page
    moves on), werkzeug notices the reset only in the read at the end of its
    ``run_wsgi``, and that read raises before the answer's ``close()``: a static
    file stays open and, under ``filterwarnings = error``, its ResourceWarning
    fails whichever test the collector happens to run in. Production servers
    (waitress, gunicorn) close the answer in a ``finally``; this does the same.
    """

    def connection_dropped(self, error, environ=None) -> None:
        answer = (environ or {}).get(ANSWER)
        if answer is not None and hasattr(answer, "close"):
            answer.close()


def _keeping_answer(app: Flask):
    """``app`` as WSGI, leaving its answer in the environ for the handler above."""
    def wsgi(environ, start_response):
        answer = app(environ, start_response)
        environ[ANSWER] = answer
        return answer
    return wsgi


@contextmanager
def served(app: Flask, *, base_url: bool = False) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 and a free port; yields the base URL.

    Each request runs in a thread of its own with its own app context and
    database session, as in production. With ``base_url`` the app's BASE_URL is
    set to it too, so the links in mails point here.
    """
    server = make_server("127.0.0.1", 0, _keeping_answer(app), threaded=True,
                         request_handler=_ClosingHandler)
    base = f"http://127.0.0.1:{server.server_port}"
    if base_url:
        app.config["BASE_URL"] = base
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
