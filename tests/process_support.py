"""The real ``vpsleuth`` command in a process of its own: start it, stop it as a service would.

For the tests that run the command line as it runs in production (the scheduler,
``serve``, ``mail idle``) rather than through click's test runner.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from sqlalchemy import func, select

import vpsleuth
from vpsleuth.extensions import db
from vpsleuth.models import Game, GameStory, OutboxMessage

ROOT = Path(vpsleuth.__file__).resolve().parent.parent


def command() -> list[str]:
    """The installed ``vpsleuth`` script beside this Python, or ``python -m vpsleuth.cli``."""
    script = Path(sys.executable).with_name("vpsleuth")
    return [str(script)] if script.exists() else [sys.executable, "-m", "vpsleuth.cli"]


def environment(**settings) -> dict[str, str]:
    """This environment less every VPSLEUTH_ setting (BASE_URL above all), plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VPSLEUTH_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update({f"VPSLEUTH_{k}": str(v) for k, v in settings.items()})
    return env


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """``vpsleuth ARGS`` in the background, in ``log``'s folder, all its output to ``log``."""
    with log.open("w") as out:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(command() + args, env=env, cwd=log.parent, stdout=out,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def stop(process: subprocess.Popen) -> int:
    """SIGTERM, as systemd sends it; its exit code, or kill it after 30 s and fail."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise


def wait_for(url: str, server: subprocess.Popen, log: Path, seconds: float = 60) -> None:
    """Until ``url`` answers (a server started by ``start``); fail with its log if it died."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text()
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    raise AssertionError(f"{server.args} does not answer at {url}:\n{log.read_text()}")


def all_sent() -> bool:
    """What the scheduler processes owe is done: every game finished, every mail sent,
    and every story a final report waits for told (tell-stories queues that report
    only then, after the game's end). Read afresh: the processes commit elsewhere."""
    db.session.rollback()
    count = lambda model, *where: db.session.scalar(  # noqa: E731
        select(func.count()).select_from(model).where(*where))
    return (count(Game, Game.state != "finished") == 0
            and count(OutboxMessage, OutboxMessage.status != "sent") == 0
            and count(GameStory, GameStory.final_report,
                      GameStory.state.in_(("queued", "computing"))) == 0)
