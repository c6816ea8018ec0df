"""An app of a test's own, on a database the shared fixtures do not manage."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask

from vpsleuth import create_app
from vpsleuth.extensions import db


@contextmanager
def own_app(config: dict) -> Iterator[Flask]:
    """``create_app(config)`` in its app context; its session and connection pool closed after."""
    app = create_app(config)
    with app.app_context():
        try:
            yield app
        finally:
            db.session.remove()
            db.engine.dispose()
