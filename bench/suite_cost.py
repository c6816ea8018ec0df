"""What the test suite costs, and who spends it: CPU seconds per kind of process.

Runs pytest (the README's test command's last step, or the paths given) while it
samples /proc every 0.4 s, and prints, per kind of process (the two pytest-xdist
workers, Chromium's renderers and browser, PostgreSQL, the service's own processes
that tests start, ...), the CPU seconds spent, beside the budget of the issue's
target: 8 minutes on this machine's cores. With ``--axe`` it also sums the time the
browser tests spend inside axe-core runs (tests/web/axe_support.py writes each run's
seconds to the file named by VPSLEUTH_AXE_TIMES).

    .venv/bin/python bench/suite_cost.py                 # the whole suite (20-25 min here)
    .venv/bin/python bench/suite_cost.py tests/web --axe # one directory

A process that lives less than a sample's interval is missed in part, and one that
ran before the sampling began counts only from then: the figures are a floor.
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from timing import process_cpu

ROOT = Path(__file__).resolve().parent.parent
BUDGET_SECONDS = 8 * 60  # issue 19, point 6: the README's test command in 8 minutes


def kind(pid: str) -> str | None:
    """A name for what the process is, from its command line."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    line = b" ".join(words).decode(errors="replace")
    if "chromium" in line:
        for part in ("renderer", "gpu-process", "utility", "zygote"):
            if f"--type={part}" in line:
                return f"chromium {part}"
        return "chromium browser"
    if "playwright/driver" in line:
        return "playwright driver (node)"
    if line.startswith("postgres"):
        return "postgresql"
    if "dovecot" in line or line.startswith("imap"):
        return "dovecot"
    if "python" in line:
        if "exec(eval(sys.stdin" in line:
            return "pytest-xdist workers"
        tool = [Path(w.decode(errors="replace")).name for w in words[1:3]]
        # By the program, not by "pytest" anywhere in the line: the processes the tests
        # start often name a folder under /tmp/pytest-of-<user>.
        if tool[:1] == ["pytest"] or tool == ["-m", "pytest"]:
            return "pytest (controller)"
        return "python: " + " ".join(tool)[:40]
    return "other: " + Path(words[0].decode(errors="replace")).name[:30]


class Sampler(threading.Thread):
    """CPU seconds per process, read from /proc until stopped."""

    def __init__(self, interval: float) -> None:
        super().__init__(daemon=True)
        self.interval, self.done = interval, threading.Event()
        self.seen: dict[str, list] = {}  # pid -> [kind, cpu at first sight, cpu now]

    def sweep(self, first: bool) -> None:
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            cpu = process_cpu(pid)
            if cpu is None:
                continue
            if pid in self.seen:
                self.seen[pid][2] = cpu
            elif (name := kind(pid)) is not None:
                # Started before the run: only what it spends from now on counts.
                self.seen[pid] = [name, cpu if first else 0.0, cpu]

    def run(self) -> None:
        self.sweep(first=True)
        while not self.done.wait(self.interval):
            self.sweep(first=False)
        self.sweep(first=False)

    def totals(self) -> tuple[collections.Counter, collections.Counter]:
        seconds, count = collections.Counter(), collections.Counter()
        for name, first, last in self.seen.values():
            seconds[name] += last - first
            count[name] += 1
        return seconds, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="test paths (default: the whole suite)")
    parser.add_argument("--axe", action="store_true",
                        help="also sum the seconds the browser tests spend in axe-core")
    parser.add_argument("--interval", type=float, default=0.4)
    args = parser.parse_args()
    env = dict(os.environ)
    axe_file = None
    if args.axe:
        axe_file = Path(tempfile.mkstemp(prefix="axe-times-")[1])
        env["VPSLEUTH_AXE_TIMES"] = str(axe_file)
    sampler = Sampler(args.interval)
    sampler.start()
    started = time.monotonic()
    run = subprocess.run([str(ROOT / ".venv" / "bin" / "pytest"), "-q", "-p", "no:cacheprovider",
                          *args.paths], cwd=ROOT, env=env, check=False,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.monotonic() - started
    sampler.done.set()
    sampler.join()
    print(run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "(no output)")
    seconds, count = sampler.totals()
    total = sum(seconds.values())
    cores = os.cpu_count() or 1
    print(f"\nwall {wall:.0f} s on {cores} cores; CPU {total:.0f} s, "
          f"{total / wall:.2f} cores busy on average")
    print(f"budget of the target: {BUDGET_SECONDS} s x {cores} cores = "
          f"{BUDGET_SECONDS * cores} CPU s; this run spent {total / (BUDGET_SECONDS * cores):.2f}x "
          "that\n")
    print(f"{'CPU s':>8} {'share':>6} {'processes':>9}  kind")
    for name, spent in seconds.most_common():
        if spent >= 0.5:
            print(f"{spent:8.1f} {spent / total:6.1%} {count[name]:9}  {name}")
    if axe_file is not None:
        runs = [float(line) for line in axe_file.read_text().split()]
        axe_file.unlink()
        print(f"\naxe-core: {len(runs)} runs, {sum(runs):.1f} s in all (wall, in the tests)")
    sys.exit(run.returncode)


if __name__ == "__main__":
    main()
