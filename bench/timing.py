"""Timing runs, profiling one, and printing the figures."""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Figures:
    """The seconds of each timed run of one measurement: wall clock, and CPU of this process.

    The CPU time hardly moves when other work shares the machine; on SQLite it
    is all the work, on PostgreSQL the server's share is missing from it.
    """

    label: str
    runs: list[float]
    cpu: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def best(self) -> float:
        return min(self.runs)

    @property
    def cpu_median(self) -> float | None:
        return statistics.median(self.cpu) if self.cpu else None


def measure(label: str, run: Callable[[], object], prepare: Callable[[], None],
            repeat: int) -> Figures:
    """One warm-up run, then ``repeat`` timed runs; ``prepare`` (untimed) before each."""
    figures = Figures(label, [])
    for i in range(repeat + 1):
        prepare()
        start, cpu = time.perf_counter(), time.process_time()
        run()
        if i:
            figures.runs.append(time.perf_counter() - start)
            figures.cpu.append(time.process_time() - cpu)
    return figures


def profile(run: Callable[[], object], prepare: Callable[[], None], top: int = 25) -> str:
    """cProfile of one run: the functions with the most time of their own, then cumulative."""
    prepare()
    profiler = cProfile.Profile()
    profiler.enable()
    run()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("cumulative").print_stats("vpsleuth", top)
    return out.getvalue()


def table(rows: list[tuple[str, ...]]) -> str:
    """Rows of cells as an aligned plain-text table; the first row is the header."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(r, widths, strict=True))) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def seconds(value: float) -> str:
    return f"{value:.3f} s"


def load() -> str:
    """The load average: other work on the machine skews the figures."""
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def process_cpu(pid: int | str) -> float | None:
    """The user and system CPU time of process ``pid`` so far (/proc), in seconds; None
    once it has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
