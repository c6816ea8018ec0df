"""Serving an app with gunicorn and loading it with wrk, for bench/http_submit.py.

Each wrk client is one wrk thread with one connection and a Lua state of its
own, so each can be a different player with their own token and turns; wrk
reports the latency percentiles. Peak memory is read from /proc (VmHWM).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
GUNICORN = Path(sys.executable).parent / "gunicorn"

# Each wrk thread (one per client) has a Lua state of its own: setup() numbers
# the threads, init() picks that client's token and turns.
LUA = """
local clients = %(clients)s
local path = %(path)s
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end
function init(args)
  me = clients[id]
  sent = 0
  headers = {["Authorization"] = "Bearer " .. me.token, ["Content-Type"] = "application/json"}
end
function request()
  sent = sent + 1
  return wrk.format("PUT", path, headers, me.bodies[(sent - 1) %% #me.bodies + 1])
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %%d %%d %%d %%d %%d %%d %%d %%d %%d %%d %%d\\n",
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
"""


@dataclass(frozen=True)
class Load:
    """What wrk measured (latencies in ms)."""

    requests: int
    seconds: float
    socket_errors: int
    non_2xx: int
    p50: float
    p95: float
    p99: float
    max: float

    @property
    def rate(self) -> float:
        return self.requests / self.seconds


def lua_script(clients: list[tuple[str, list[str]]], path: str) -> str:
    """The wrk script: each thread one client, sending its turns in turn."""
    def string(s: str) -> str:  # a Lua long string: no escaping needed
        return "[==[" + s + "]==]"

    entries = ",\n".join(f"{{token = {string(t)}, bodies = {{{', '.join(map(string, b))}}}}}"
                         for t, b in clients)
    return LUA % {"clients": "{\n" + entries + "\n}", "path": string(path)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def gunicorn(app: str, workers: int, threads: int, env: dict[str, str],
             log_path: Path | None = None) -> Iterator[tuple[int, int]]:
    """gunicorn serving ``app`` on a free loopback port: (master pid, port).

    Its log is ``log_path``, left to the caller; or else a temporary file, kept (and
    named) only if the run stops with an error.
    """
    port = free_port()
    log = log_path.open("wb") if log_path else tempfile.NamedTemporaryFile(  # noqa: SIM115
        prefix="vpsleuth-bench-gunicorn-", suffix=".log", delete=False)
    proc = subprocess.Popen(
        [str(GUNICORN), "--workers", str(workers), "--threads", str(threads),
         "--bind", f"127.0.0.1:{port}",
         "--pythonpath", str(BENCH), "--backlog", "2048", app],
        env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT)
    failed = True
    try:
        deadline = time.monotonic() + 60
        while len(workers_of(proc.pid)) < workers or not listening(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("gunicorn did not start")
            time.sleep(0.1)
        yield proc.pid, port
        failed = False
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        if log_path is None and failed:
            print(f"gunicorn's log: {log.name}", file=sys.stderr)
        elif log_path is None:
            os.unlink(log.name)


def listening(port: int) -> bool:
    """Whether something accepts connections on the loopback port."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def workers_of(master: int) -> list[int]:
    """The pids of the gunicorn master's worker processes."""
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text()
    except OSError:
        return []
    return [int(pid) for pid in children.split()]


def peak_rss_mib(pid: int) -> float:
    """VmHWM, the peak resident set size of a process, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def check_one(port: int, path: str, token: str, body: str) -> None:
    """One request by hand: the server answers 200 with JSON, or the run stops."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode(),
                                     method="PUT", headers={"Authorization": f"Bearer {token}",
                                                            "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            json.load(response)
    except Exception as exc:
        raise SystemExit(f"the server at port {port} did not accept a turn: {exc}") from None


def wrk(port: int, script: Path, clients: int, seconds: int) -> Load:
    """wrk: one thread and one connection per client, for ``seconds``; then ``drain``."""
    out = subprocess.run(
        ["wrk", "--threads", str(clients), "--connections", str(clients),
         "--duration", f"{seconds}s", "--timeout", "10s", "--script", str(script),
         f"http://127.0.0.1:{port}/"], capture_output=True, text=True, check=True).stdout
    line = next((x for x in out.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise SystemExit(f"wrk printed no result:\n{out}")
    n, us, connect, read, write, status, timeout, p50, p95, p99, peak = map(int, line.split()[1:])
    drain(port)
    return Load(n, us / 1e6, connect + read + write + timeout, status,
                p50 / 1000, p95 / 1000, p99 / 1000, peak / 1000)


def drain(port: int, quick: float = 0.05, patience: float = 120) -> None:
    """Wait until the server has done the requests a load left behind.

    When wrk stops, up to one request per connection is still queued at the
    server, which handles each (storing the turn) even though nobody waits for
    the answer: a second of work or more, which would land in the next
    measurement. A GET of a page that does not exist queues behind them; once
    one is answered within ``quick`` seconds, the queue is empty.
    """
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        began = time.perf_counter()
        with (contextlib.suppress(urllib.error.HTTPError),  # the 404 expected
              urllib.request.urlopen(f"http://127.0.0.1:{port}/bench-drain", timeout=patience)):
            pass
        if time.perf_counter() - began < quick:
            return
    raise SystemExit(f"the server at port {port} was still busy {patience:.0f} s after a load")


def paced(port: int, clients: list[tuple[str, list[str]]], path: str, rate: float,
          seconds: float, seed: int = 4) -> Load:
    """Each client a Poisson stream of turns, ``rate`` a second in all; latencies measured.

    wrk cannot pace a sync gunicorn worker fairly: it reconnects at once after a
    response and waits on the open connection, which keeps a worker reading an
    idle socket. These clients connect when they send, as a browser or a script
    would; a client whose turn is still unanswered sends its next one after the
    answer (one player, one turn at a time). Latency includes the connect.
    """
    return asyncio.run(_paced(port, clients, path, rate, seconds, random.Random(seed)))


async def _paced(port: int, clients: list[tuple[str, list[str]]], path: str, rate: float,
                 seconds: float, rng: random.Random) -> Load:
    latencies: list[float] = []
    failures = {"socket": 0, "status": 0}
    start = time.perf_counter()
    end = start + seconds

    async def client(token: str, bodies: list[str]) -> None:
        at, sent = start + rng.expovariate(rate / len(clients)), 0
        while at < end:
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            body = bodies[sent % len(bodies)].encode()
            sent += 1
            began = time.perf_counter()
            try:
                status = await _put(port, path, token, body)
            except OSError:
                failures["socket"] += 1
            else:
                latencies.append(time.perf_counter() - began)
                failures["status"] += not 200 <= status < 300
            at += rng.expovariate(rate / len(clients))

    await asyncio.gather(*(client(token, bodies) for token, bodies in clients))
    elapsed = time.perf_counter() - start
    ranked = sorted(latencies) or [0.0]
    p50, p95, p99 = (1000 * percentile(ranked, p) for p in (50, 95, 99))
    return Load(len(latencies), elapsed, failures["socket"], failures["status"],
                p50, p95, p99, 1000 * ranked[-1])


def percentile(ranked: list[float], p: float) -> float:
    """The ``p``-th percentile of values sorted ascending (nearest rank), as wrk counts."""
    return ranked[min(len(ranked) - 1, int(p / 100 * len(ranked)))]


async def _put(port: int, path: str, token: str, body: bytes) -> int:
    """One PUT on a connection of its own; the response's status code."""
    status, _, _ = await request(port, "PUT", path, {
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"}, body)
    return status


async def request(port: int, method: str, path: str, headers: dict[str, str],
                  body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 request on a connection of its own, as a browser or script sends it.

    Returns the status (0 for an answer that is not HTTP), the headers by lower-case
    name (of a header sent twice, the last) and the body.
    """
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{lines}"
                     f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                     + body)
        await writer.drain()
        response = await reader.read()  # the server closes the connection after it
    finally:
        writer.close()
        await writer.wait_closed()
    head, _, content = response.partition(b"\r\n\r\n")
    status_line, *fields = head.decode("latin-1").split("\r\n")
    if not status_line.startswith("HTTP/"):
        return 0, {}, b""
    found = {}
    for field in fields:
        name, _, value = field.partition(":")
        found[name.strip().lower()] = value.strip()
    return int(status_line.split(" ", 2)[1]), found, content
