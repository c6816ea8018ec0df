"""Where the links in mails and in the command line's hints point.

BASE_URL when it is set (in production: the public address). Unset, links
follow the address ``vpsleuth serve`` was last started with: serve keeps it in
the database (SchedulerState ``served_url``), so the scheduler running alone
or ``vpsleuth gm add`` in a second shell write the same links as serve itself.
Before any serve it is serve's default, http://localhost:5000.

Never the Host header of a request: a mail is read by someone other than the
one who asked for it (a sign-in link is asked for with anybody's address), so
a forged Host would send them a link to the forger's site. Pages shown to the
requester alone (feed addresses) may use the request's host: url_for(_external).
"""

from __future__ import annotations

import socket

from flask import Flask, current_app
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import SchedulerState, utcnow

DEFAULT = "http://localhost:5000"
SERVED = "served_url"
WILDCARDS = {"", "0.0.0.0", "::", "[::]"}


def base_url() -> str:
    """The address links in mails start with, without a trailing slash."""
    configured = current_app.config.get("BASE_URL")
    if configured:
        return configured.rstrip("/")
    served = current_app.config.get("SERVED_URL")  # this process is the server
    if served:
        return served
    with db.session.no_autoflush:  # called while a service builds its rows
        row = db.session.get(SchedulerState, SERVED)
    return row.value if row is not None and row.value else DEFAULT


def served_url(host: str, port: int) -> str:
    """The address a browser reaches ``vpsleuth serve --host HOST --port PORT`` at.

    Listening on every interface, that is this machine's name.
    """
    if host in WILDCARDS:
        host = socket.gethostname()
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    return f"http://{host}:{port}"


def remember_served(app: Flask, host: str, port: int) -> str:
    """Record the address this process serves at, for its own links and other processes'."""
    url = served_url(host, port)
    app.config["SERVED_URL"] = url
    with app.app_context():
        row = db.session.get(SchedulerState, SERVED)
        if row is None:
            db.session.add(SchedulerState(name=SERVED, value=url, updated_at=utcnow()))
        else:
            row.value, row.updated_at = url, utcnow()
        try:
            db.session.commit()
        except IntegrityError:  # another serve started at the same moment: last one wins
            db.session.rollback()
            db.session.get(SchedulerState, SERVED).value = url
            db.session.commit()
    return url


def configured() -> bool:
    """Whether BASE_URL is set (else links follow serve)."""
    return bool(current_app.config.get("BASE_URL"))
