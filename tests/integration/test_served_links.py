"""Without BASE_URL, the links in mails and hints follow where ``vpsleuth serve`` listens.

The real command on a free port: the links in a sign-in mail asked for on the
web, in ``gm add``'s hint and in the banner all name that port; a forged Host
header on the request changes nothing in the mail.
"""

from __future__ import annotations

import http.cookiejar
import re
import subprocess
import urllib.error
import urllib.parse
import urllib.request

from process_support import command, environment, start, stop, wait_for
from smtp_sink import free_port

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.services.links import base_url, served_url

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def cli(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(command() + list(args), env=env, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout




def ask_for_sign_in_link(base: str, email: str, host: str) -> None:
    """The sign-in form, as a browser sends it, but with a forged Host header."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    page = opener.open(f"{base}/signin", timeout=10).read().decode()
    form = urllib.parse.urlencode({"email": email, "csrf_token": CSRF.search(page).group(1)})
    request = urllib.request.Request(f"{base}/signin", data=form.encode(), method="POST",
                                     headers={"Host": host})
    with opener.open(request, timeout=10) as answer:
        assert answer.status == 200


def test_links_follow_the_port_serve_was_started_on(tmp_path):
    port = free_port()
    env = environment(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'links.db'}",
                      SECRET_KEY="links-test")
    log = tmp_path / "serve.log"
    server = start(["serve", "--port", str(port), "--no-scheduler"], env, log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/signin", server, log)
        hint = cli(env, "gm", "add", "gina@example.org", "Gina")
        assert f"Sign in at {base}/signin, then open {base}/gm/." in hint
        ask_for_sign_in_link(base, "gina@example.org", host="evil.example")
        mail = cli(env, "mail", "outbox", "--show", "1")
    finally:
        assert stop(server) == 0, log.read_text()
    assert "To: gina@example.org" in mail
    assert f"{base}/signin/" in mail
    assert "evil.example" not in mail and "localhost:5000" not in mail
    banner = log.read_text()
    assert f"Serving on {base} (without the scheduler)" in banner
    assert "Links in mails point to" not in banner  # no BASE_URL: nothing to warn about


def test_a_set_base_url_wins_over_the_served_address(tmp_path):
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.db'}",
                      "BASE_URL": "https://sleuth.example.org/"})
    with app.app_context():
        db.create_all()
        app.config["SERVED_URL"] = "http://127.0.0.1:7300"
        assert base_url() == "https://sleuth.example.org"
        app.config["BASE_URL"] = None
        assert base_url() == "http://127.0.0.1:7300"
        db.engine.dispose()


def test_the_served_address_of_every_interface_is_this_machines_name():
    import socket

    assert served_url("0.0.0.0", 7300) == f"http://{socket.gethostname()}:7300"
    assert served_url("::1", 7300) == "http://[::1]:7300"
    assert served_url("127.0.0.1", 7300) == "http://127.0.0.1:7300"
