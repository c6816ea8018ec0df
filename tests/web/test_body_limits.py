"""Request bodies are capped in the app: a longer one is refused (413) before it is read."""

from __future__ import annotations

import io
import logging

import pytest
from werkzeug.test import EnvironBuilder, TestResponse, run_wsgi_app

from vpsleuth.models import ApiToken

CAP = 1024 * 1024


class CountingStream(io.RawIOBase):
    """``size`` bytes of form data that count how many of them the app read."""

    def __init__(self, size: int):
        self.size, self.read_bytes = size, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.size - self.read_bytes)
        buffer[:n] = b"a" * n
        self.read_bytes += n
        return n


def post(app, path: str, stream: CountingStream, *, content_length: int | None,
         content_type: str = "application/x-www-form-urlencoded", headers: dict | None = None):
    """A POST whose body is ``stream``: with a Content-Length, or chunked without one."""
    environ = EnvironBuilder(path, method="POST", headers=headers).get_environ()
    environ["wsgi.input"], environ["CONTENT_TYPE"] = stream, content_type
    environ.pop("CONTENT_LENGTH", None)
    if content_length is None:
        environ["wsgi.input_terminated"] = True  # as a server that decodes chunks says
    else:
        environ["CONTENT_LENGTH"] = str(content_length)
    with app.app_context():
        return TestResponse(*run_wsgi_app(app, environ, buffered=True), request=None)


def test_the_cap_is_one_mib(app):
    assert app.config["MAX_CONTENT_LENGTH"] == CAP


@pytest.mark.parametrize("path", ["/signin", "/settings", "/gm/games/new", "/signout",
                                  "/games/1/turn"])
def test_a_form_over_the_cap_is_refused_unread_with_a_page(app, path, caplog):
    caplog.set_level(logging.WARNING)
    stream = CountingStream(100 * CAP)
    response = post(app, path, stream, content_length=100 * CAP)
    assert response.status_code == 413
    assert stream.read_bytes == 0
    body = response.get_data(as_text=True)
    assert "That was too much at once: at most 1024 KiB are accepted." in body
    assert "<html" in body and "Back to your games" in body
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_the_page_for_too_large_a_form_speaks_german(app):
    response = post(app, "/signin", CountingStream(2 * CAP), content_length=2 * CAP,
                    headers={"Accept-Language": "de"})
    assert response.status_code == 413
    assert "höchstens 1024 KiB" in response.get_data(as_text=True)


def test_a_chunked_form_without_a_length_is_cut_off_at_the_cap(app):
    stream = CountingStream(100 * CAP)
    response = post(app, "/signin", stream, content_length=None)
    assert response.status_code == 413
    assert stream.read_bytes <= CAP + 64 * 1024  # werkzeug reads in chunks up to the cap


def test_a_lying_content_length_reads_no_further_than_it_says(app):
    stream = CountingStream(100 * CAP)
    response = post(app, "/signin", stream, content_length=1000)
    assert response.status_code == 400  # the CSRF token is missing from what was read
    assert stream.read_bytes <= 1000


@pytest.mark.parametrize("fields", [[("text", "a" * 600_000)],
                                    [(f"f{i}", "x") for i in range(1200)]])
def test_a_multipart_form_within_the_cap_but_over_flasks_form_limits_is_413(app, fields):
    """MAX_FORM_MEMORY_SIZE (500 kB a field) and MAX_FORM_PARTS (1,000 parts), Flask's defaults."""
    body = b"".join(b"--b\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n"
                    % (name.encode(), value.encode()) for name, value in fields) + b"--b--\r\n"
    assert len(body) < CAP
    response = post(app, "/signin", io.BytesIO(body), content_length=len(body),
                    content_type="multipart/form-data; boundary=b")
    assert response.status_code == 413


def test_an_api_body_sent_chunked_over_256_kib_is_a_json_413(app, gm_account):
    from vpsleuth.services import accounts

    _, token = accounts.issue_api_token(game_master=gm_account)
    stream = CountingStream(10 * CAP)
    response = post(app, "/api/v1/games", stream, content_length=None,
                    content_type="application/json",
                    headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_large"
    assert stream.read_bytes <= 256 * 1024 + 64 * 1024
    assert ApiToken.query.count() == 1
