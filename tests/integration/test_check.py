"""`vpsleuth check` tells a GM in plain words what is wrong with the configuration."""

from __future__ import annotations

import socket

from aiosmtpd.controller import Controller

from vpsleuth import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_check(tmp_path, **config):
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'c.db'}", **config})
    app.instance_path = str(tmp_path / "instance")
    runner = app.test_cli_runner()
    runner.invoke(args=["db", "upgrade"])
    return runner.invoke(args=["check"])


def test_the_embedded_defaults_pass_with_warnings_about_mail(tmp_path):
    result = run_check(tmp_path)
    assert result.exit_code == 0, result.output
    assert "is reachable and up to date" in result.output
    assert "WARNING REPLY_ADDRESS is 'vpsleuth@localhost'" in result.output
    assert "no MAIL_SERVER: mails wait in the outbox" in result.output
    assert ("BASE_URL is not set: links in mails follow `vpsleuth serve` "
            "(now http://localhost:5000)") \
        in result.output


def test_an_unreachable_database_is_an_error(tmp_path):
    port = free_port()
    app = create_app({"SQLALCHEMY_DATABASE_URI":
                      f"postgresql+psycopg://postgres@127.0.0.1:{port}/nothing"})
    result = app.test_cli_runner().invoke(args=["check"])
    assert result.exit_code == 1
    assert f"cannot reach the database postgresql+psycopg://postgres@127.0.0.1:{port}" \
        in result.output


def test_a_database_behind_on_migrations_is_an_error(tmp_path):
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'old.db'}"})
    app.instance_path = str(tmp_path / "instance")
    result = app.test_cli_runner().invoke(args=["check"])
    assert result.exit_code == 1
    assert "its schema is at nothing" in result.output and "vpsleuth db upgrade" in result.output


def test_smtp_is_checked_against_the_real_server(tmp_path):
    down = run_check(tmp_path, MAIL_SERVER="127.0.0.1", MAIL_PORT=free_port())
    assert down.exit_code == 1 and "cannot talk to the SMTP server" in down.output
    controller = Controller(object(), hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        up = run_check(tmp_path, MAIL_SERVER="127.0.0.1", MAIL_PORT=controller.port,
                       REPLY_ADDRESS="vpsleuth@sleuth.test", BASE_URL="https://sleuth.test",
                       SESSION_COOKIE_SECURE=True)
    finally:
        controller.stop()
    assert up.exit_code == 0, up.output
    assert f"ok      the SMTP server 127.0.0.1:{controller.port} answers" in up.output
    assert "replies go to vpsleuth@sleuth.test" in up.output
    assert "links in mails point to https://sleuth.test" in up.output


def test_an_unreachable_imap_server_is_an_error(tmp_path):
    result = run_check(tmp_path, IMAP_HOST="127.0.0.1", IMAP_PORT=free_port(),
                       IMAP_USER="gm", IMAP_PASSWORD="x")
    assert result.exit_code == 1
    assert "cannot reach the IMAP server 127.0.0.1" in result.output
