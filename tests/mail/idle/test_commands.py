"""How the watcher runs in production: beside the scheduler, or alone (`vpsleuth mail idle`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from process_support import environment, start, stop

from vpsleuth.jobs.scheduler import start_watcher
from vpsleuth.mail.inbound.lease import current_holder

from ..support import inbound
from .helpers import confirmations, reply, wait_until


def test_the_watcher_starts_only_with_an_imap_host_and_idle_on(app, mailbox):
    app.config["IMAP_IDLE"] = False
    assert start_watcher(app) is None
    app.config.update(IMAP_IDLE=True, IMAP_HOST=None)
    assert start_watcher(app) is None


def test_the_scheduler_starts_a_watcher_when_an_imap_host_is_set(app, mailbox):
    watcher = start_watcher(app)
    try:
        wait_until(lambda: watcher.state == "idle", "the watcher to enter IDLE")
    finally:
        watcher.stop()
    assert not watcher.thread.is_alive() and watcher.state == "stopped"


def run(args: list[str], app, log: Path) -> subprocess.Popen:
    """``vpsleuth ARGS`` in a process of its own, on the test's database and mailbox."""
    settings = {key: app.config[key] for key in (
        "SQLALCHEMY_DATABASE_URI", "SECRET_KEY", "REPLY_ADDRESS", "IMAP_HOST", "IMAP_PORT",
        "IMAP_USER", "IMAP_PASSWORD", "IMAP_FOLDER", "IMAP_DONE_FOLDER")}
    return start(args, environment(**settings, IMAP_SSL="false", IMAP_IDLE_SECONDS="600"), log)


@pytest.mark.parametrize("args", [["mail", "idle"], ["scheduler"]])
def test_a_watcher_process_confirms_replies_until_it_is_stopped(app, game, ada, mailbox,
                                                                tmp_path, args):
    log = tmp_path / "watcher.log"
    process = run(args, app, log)
    try:
        wait_until(lambda: current_holder().startswith("watch@") or process.poll() is not None,
                   "the watcher to take the mailbox", log=log)
        assert process.poll() is None, log.read_text()
        mailbox.append(reply(ada, 1))
        wait_until(lambda: len(confirmations()) == 1, "the confirmation", log=log)
    finally:
        code = stop(process)
    output = log.read_text()
    assert code == 0, output
    assert [(r.source, r.status) for r in inbound()] == [("imap", "applied")]
    assert "IMAP watcher: connected to" in output and "with IDLE" in output
    assert current_holder() == ""  # given back on the way out
