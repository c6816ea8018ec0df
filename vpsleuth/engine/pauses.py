"""No collector pauses inside the engine's searches.

A search makes millions of short-lived tuples and lists, none in a cycle, so
reference counting frees them all; but they wake the cyclic collector, which
in a process holding a web framework and its libraries (a hundred thousand
objects and more) spends 50-60 ms a full collection walking objects the
engine never touched: more than a whole search of a mid-game record. Inside
the engine's entry points the collector waits; it is switched back on after
(unless it was already off), so whatever the rest of the process made in
cycles is collected as before.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def without_collector(func: Callable[P, R]) -> Callable[P, R]:
    """Run ``func`` with the cyclic garbage collector paused."""

    @functools.wraps(func)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        was_on = gc.isenabled()
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            if was_on:
                gc.enable()

    return paused
