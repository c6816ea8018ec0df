"""How the watcher runs in production: beside the scheduler, or alone (`vpsleuth mail idle`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import vpsleuth
from vpsleuth.mail.inbound.lease import current_holder
from vpsleuth.scheduler import start_watcher

from ..support import inbound
from .helpers import confirmations, reply, wait_until

ROOT = Path(vpsleuth.__file__).resolve().parent.parent


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
    env = {k: v for k, v in os.environ.items() if not k.startswith("VPSLEUTH_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    for key in ("SQLALCHEMY_DATABASE_URI", "SECRET_KEY", "REPLY_ADDRESS", "IMAP_HOST",
                "IMAP_PORT", "IMAP_USER", "IMAP_PASSWORD", "IMAP_FOLDER", "IMAP_DONE_FOLDER"):
        env[f"VPSLEUTH_{key}"] = str(app.config[key])
    env.update(VPSLEUTH_IMAP_SSL="false", VPSLEUTH_IMAP_IDLE_SECONDS="600")
    script = Path(sys.executable).with_name("vpsleuth")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "vpsleuth.cli"]
    with log.open("w") as out:
        return subprocess.Popen(command + args, env=env, cwd=log.parent, stdout=out,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def stop(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise


@pytest.mark.parametrize("args", [["mail", "idle"], ["scheduler"]])
def test_a_watcher_process_confirms_replies_until_it_is_stopped(app, game, ada, mailbox,
                                                                tmp_path, args):
    log = tmp_path / "watcher.log"
    process = run(args, app, log)
    try:
        wait_until(lambda: current_holder().startswith("watch@") or process.poll() is not None,
                   "the watcher to take the mailbox")
        assert process.poll() is None, log.read_text()
        mailbox.append(reply(ada, 1))
        wait_until(lambda: len(confirmations()) == 1, "the confirmation")
    finally:
        code = stop(process)
    output = log.read_text()
    assert code == 0, output
    assert [(r.source, r.status) for r in inbound()] == [("imap", "applied")]
    assert "IMAP watcher: connected to" in output and "with IDLE" in output
    assert current_holder() == ""  # given back on the way out
