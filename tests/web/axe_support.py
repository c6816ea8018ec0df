"""axe-core in the browser tests: run it on a page, count what it finds.

axe-core comes from the PyPI package axe-playwright-python (a test extra in
pyproject.toml), which ships axe-core's own ``axe.min.js``: README's test
command installs it with everything else, with no npm step and no network at
test time. The script is evaluated through the DevTools protocol, which the
site's Content-Security-Policy (no inline script) does not block.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, field

from axe_playwright_python.base import AXE_SCRIPT
from browser_support import SCREENSHOTS, shoot_once
from playwright.sync_api import BrowserContext, Page

# WCAG 2.0, 2.1 and 2.2, levels A and AA: what the issues ask of every page (2.2 adds
# the target size of 2.5.8, which phones need most).
OPTIONS = {"runOnly": {"type": "tag",
                       "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
           "resultTypes": ["violations"]}
IMPACTS = ("critical", "serious", "moderate", "minor")
FAILING = ("critical", "serious")
# bench/suite_cost.py --axe: each run's seconds are appended to this file, when it is set.
TIMES = os.environ.get("VPSLEUTH_AXE_TIMES")


@dataclass
class Findings:
    """What axe found on one page in one setting: failing elements by impact, and details."""

    nodes: Counter = field(default_factory=Counter)  # impact -> failing elements
    details: list[str] = field(default_factory=list)  # rule, impact, target, summary

    @property
    def failing(self) -> int:
        return sum(self.nodes[i] for i in FAILING)

    def cell(self) -> str:
        """``serious+critical/all``, as the table prints it."""
        return f"{self.failing}/{sum(self.nodes.values())}"


def axe_version(page: Page) -> str:
    inject(page)
    return page.evaluate("() => axe.version")


def preload(context: BrowserContext) -> None:
    """Have every page of ``context`` load axe-core itself, before the page's own scripts
    (sent to the browser once, not once per page)."""
    context.add_init_script(AXE_SCRIPT)


def inject(page: Page) -> None:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)


def check(page: Page) -> Findings:
    """Run axe-core (WCAG 2.0-2.2 A and AA) on the page as it stands."""
    started = time.perf_counter()
    inject(page)
    result = page.evaluate("options => axe.run(document, options)", OPTIONS)
    if TIMES:
        with open(TIMES, "a") as times:
            times.write(f"{time.perf_counter() - started:.4f}\n")
    found = Findings()
    for violation in result["violations"]:
        impact = violation.get("impact") or "minor"
        for node in violation["nodes"]:
            node_impact = node.get("impact") or impact
            found.nodes[node_impact] += 1
            if node_impact in FAILING:
                summary = (node.get("failureSummary") or "").replace("\n", " ")
                found.details.append(f"{violation['id']} ({node_impact}) "
                                     f"{', '.join(map(str, node['target']))}: {summary[:240]}")
    return found


def looked_at(page: Page, name: str, width: int, *, refused: str | None = None) -> None:
    """What a reader's eye checks on a page: a full-page screenshot (``name-width.png``,
    once a run), no sideways scrolling, nothing axe-core calls serious or critical, no
    console error and no failed request; ``refused``: a path whose 400 the page shows on
    purpose (a refused form), which is then forgotten so later looks start afresh."""
    shoot_once(page, SCREENSHOTS / f"{name}-{width}.png", full_page=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, name
    found = check(page)
    assert found.failing == 0, found.details
    failed = [(status, url) for status, url in page.failed
              if not (refused and status == 400 and url.endswith(refused))]
    assert not page.console_errors and not failed, (page.console_errors, failed)
    if refused:
        page.failed.clear()
