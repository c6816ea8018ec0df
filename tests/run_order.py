"""The order the test files run in: the longest first, so both workers end together.

pytest-xdist (``--dist loadfile``) hands each worker one test file at a time, in
the order of the collection when ``--no-loadscope-reorder`` is given (by default
it orders the files by their number of tests, which put the few long browser
and process tests last, one worker running them alone while the other idled).
Longest first is the classic rule for sharing jobs of known length between
machines: a long file started late is what keeps the run going after the rest
is done.

The lengths are those of an earlier run, kept per file in ``tests/durations.json``
(``pytest --store-durations`` writes them anew). A file not listed there counts
a tenth of a second a test. Files with a test marked ``alone`` come last: such a
test waits for the other worker's current test to end, and at the end those are
the short ones.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

DURATIONS = Path(__file__).resolve().parent / "durations.json"
UNKNOWN_TEST_SECONDS = 0.1


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def known() -> dict[str, float]:
    return json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}


def longest_first(items: list) -> list:
    """``items`` with their files ordered by expected length (longest first), each file's
    tests kept together and in their own order; files holding an ``alone`` test last."""
    lengths = known()
    by_file: dict[str, list] = defaultdict(list)
    for item in items:
        by_file[file_of(item.nodeid)].append(item)

    def expected(name: str) -> tuple[bool, float]:
        tests = by_file[name]
        alone = any(t.get_closest_marker("alone") is not None for t in tests)
        return alone, -lengths.get(name, UNKNOWN_TEST_SECONDS * len(tests))

    order = sorted(by_file, key=expected)  # stable: equal lengths keep the collection's order
    return [item for name in order for item in by_file[name]]


class Timer:
    """A plugin (``--store-durations``): adds up each file's setup, call and teardown
    times as the reports come in, and stores them at the end of the run."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[file_of(report.nodeid)] += report.duration

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.seconds:
            terminalreporter.write_line(f"test files' lengths written to {self.store()}")

    def store(self) -> Path:
        """Write the measured files' lengths over their old ones; others stay as they were."""
        lengths = known() | {name: round(s, 2) for name, s in self.seconds.items()}
        DURATIONS.write_text(json.dumps(dict(sorted(lengths.items())), indent=1) + "\n")
        return DURATIONS
