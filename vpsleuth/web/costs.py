"""The costly pages and forms, each spent through services/costly.py (issue 24, 1)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import wraps

from flask import current_app, request

from ..services import costly
from .session import current_viewer


def who() -> str:
    """The account a request is counted against: the signed-in address, else the client."""
    viewer = current_viewer()
    return viewer.email if viewer is not None else f"client:{request.remote_addr}"


def spent(kind: str, setting: str, *, per: timedelta = timedelta(minutes=1)) -> Callable:
    """A view decorator (below ``login_required``): the view runs within the limits of
    ``kind``, at most ``app.config[setting]`` a ``per`` for one account."""
    def wrap(view: Callable) -> Callable:
        @wraps(view)
        def limited(*args, **kwargs):
            with costly.spending(kind, who(), most=int(current_app.config[setting]), per=per):
                return view(*args, **kwargs)
        return limited
    return wrap
