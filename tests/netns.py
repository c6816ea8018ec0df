"""Several hosts on one machine: network namespaces on a bridge of their own (root only).

``with Network(["app1", "sched1"]) as net:`` makes a bridge in the default
namespace with an address of its own (``net.address``: where the test's
servers listen) and, per name, a network namespace joined to the bridge by a
veth pair, with one address on the same /24 (``net.hosts[name].address``) and
``lo`` up. ``net.hosts[name].command(args)`` runs a program inside it
(``ip netns exec``). ``net.cut(name)`` takes the bridge's end of the host's
veth pair down, so nothing passes to or from that host until ``net.mend(name)``:
its processes run on and find their connections silent, as when a host loses
its network.

The namespaces have no route but their /24: their traffic goes only to the
addresses given here. The /24 is the first of 198.18.0.0/15 (set aside for
network tests, RFC 2544) that no route of the machine overlaps, chosen under a
lock, so that parallel runs never share one. Every name made starts with
``PREFIX``, this process's id and a letter, so two runs (pytest-xdist
workers) never collide; on entering, leftovers of runs whose process is gone are removed.
On leaving, also after a failure, whatever was made is removed, and processes
still running in the namespaces (started by this test) are killed.
"""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import itertools
import json
import os
import re
import signal
import string
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

PREFIX = "vpsn"  # then the process id and a letter: vpsn1234ab (bridge), vpsn1234ah0, ...
POOL = ipaddress.ip_network("198.18.0.0/15")
LOCK = Path(tempfile.gettempdir()) / "vpsleuth-netns.lock"
_OURS = re.compile(rf"^{PREFIX}(\d+)[a-z]")
_NETWORKS = itertools.count()  # a letter per network this process makes


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """``ip ARGS``; its error output in the exception when it fails."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if check and done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done


@dataclass(frozen=True)
class Host:
    """One namespace: its name, its address, and the bridge's end of its link."""

    name: str
    namespace: str
    address: str
    port: str  # the veth end on the bridge, in the default namespace

    def command(self, args: list[str]) -> list[str]:
        """``args`` run inside the namespace (the same process: ``ip netns exec`` execs)."""
        return ["ip", "netns", "exec", self.namespace, *args]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _leftover(name: str) -> bool:
    found = _OURS.match(name)
    return found is not None and not _alive(int(found.group(1)))


def _kill_inside(namespace: str) -> None:
    """SIGKILL what still runs in ``namespace``: only this test's processes are there."""
    done = ip("netns", "pids", namespace, check=False)
    for pid in done.stdout.split():
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid), signal.SIGKILL)


def sweep() -> list[str]:
    """Remove namespaces and links of earlier runs whose process is gone; their names."""
    removed = []
    for line in ip("netns", "list").stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        if _leftover(name):
            _kill_inside(name)
            ip("netns", "delete", name, check=False)
            removed.append(name)
    for link in json.loads(ip("-j", "link", "show").stdout or "[]"):
        name = link.get("ifname", "")
        if _leftover(name):
            ip("link", "delete", name, check=False)
            removed.append(name)
    return removed


def _free_subnet() -> ipaddress.IPv4Network:
    """The first /24 of POOL that no route of the default namespace overlaps."""
    taken = []
    for route in json.loads(ip("-j", "-4", "route", "show", "table", "all").stdout or "[]"):
        destination = route.get("dst", "")
        if destination and destination != "default":
            try:
                taken.append(ipaddress.ip_network(destination, strict=False))
            except ValueError:
                continue
    for subnet in POOL.subnets(new_prefix=24):
        if not any(subnet.overlaps(t) for t in taken):
            return subnet
    raise RuntimeError(f"no free /24 left in {POOL} for a test network")


class Network:
    """A bridge with an address, and a namespace per name on it; see the module's docstring."""

    def __init__(self, names: list[str]) -> None:
        if len(set(names)) != len(names):
            raise ValueError(f"host names must differ: {names}")
        self.names = list(names)
        # Interface names have at most 15 characters: vpsn + pid (7) + letter + h10.
        self.tag = f"{PREFIX}{os.getpid()}{string.ascii_lowercase[next(_NETWORKS) % 26]}"
        self.bridge = f"{self.tag}b"
        self.subnet = ""  # the /24, e.g. "198.18.0.0/24"
        self.address = ""
        self.hosts: dict[str, Host] = {}
        self._made: list[tuple[str, str]] = []  # ("netns" | "link", name), in order made

    def __enter__(self) -> Network:
        try:
            with LOCK.open("a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # sweep and choose a /24 one run at a time
                sweep()
                subnet = _free_subnet()
                self.subnet = str(subnet)
                ip("link", "add", self.bridge, "type", "bridge")
                self._made.append(("link", self.bridge))
                addresses = subnet.hosts()
                self.address = str(next(addresses))
                ip("addr", "add", f"{self.address}/24", "dev", self.bridge)
                ip("link", "set", self.bridge, "up")
            for number, name in enumerate(self.names):
                self._add(number, name, str(next(addresses)))
        except BaseException:
            self.remove()
            raise
        return self

    def _add(self, number: int, name: str, address: str) -> None:
        namespace, port, inside = f"{self.tag}-{name}", f"{self.tag}h{number}", \
            f"{self.tag}n{number}"
        ip("netns", "add", namespace)
        self._made.append(("netns", namespace))
        ip("link", "add", port, "type", "veth", "peer", "name", inside)
        self._made.append(("link", port))  # removing either end removes the pair
        ip("link", "set", inside, "netns", namespace)
        ip("link", "set", port, "master", self.bridge)
        ip("link", "set", port, "up")
        ip("-n", namespace, "addr", "add", f"{address}/24", "dev", inside)
        ip("-n", namespace, "link", "set", inside, "up")
        ip("-n", namespace, "link", "set", "lo", "up")
        self.hosts[name] = Host(name, namespace, address, port)

    def cut(self, name: str) -> None:
        """Nothing passes to or from host ``name`` any more (its link is down)."""
        ip("link", "set", self.hosts[name].port, "down")

    def mend(self, name: str) -> None:
        """Host ``name``'s link is up again."""
        ip("link", "set", self.hosts[name].port, "up")

    def remove(self) -> None:
        """Remove what was made, newest first; what is gone already is no error."""
        for kind, name in reversed(self._made):
            if kind == "netns":
                _kill_inside(name)
                ip("netns", "delete", name, check=False)
            else:
                ip("link", "delete", name, check=False)
        self._made.clear()

    def __exit__(self, *exc) -> None:
        self.remove()
