"""``vpsleuth mail ingest`` as an MTA runs it: a real process, the message on stdin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from vpsleuth.extensions import db
from vpsleuth.rules import parse_question
from vpsleuth.services import turns

from .support import corpus, inbound, outbox

VPSLEUTH = str(Path(sys.executable).parent / "vpsleuth")
UNREACHABLE = "postgresql+psycopg://postgres@127.0.0.1:1/nothing?connect_timeout=3"


def run_ingest(app, raw: bytes, database: str | None = None) -> subprocess.CompletedProcess:
    """Run the command as Postfix's pipe transport would, against the test database."""
    db.session.commit()  # end our transaction: SQLite lets the writer in
    env = dict(os.environ,
               VPSLEUTH_SQLALCHEMY_DATABASE_URI=database or app.config["SQLALCHEMY_DATABASE_URI"],
               VPSLEUTH_SECRET_KEY=app.config["SECRET_KEY"])
    return subprocess.run([VPSLEUTH, "mail", "ingest"], input=raw, env=env,
                          capture_output=True, timeout=120)


def test_a_piped_reply_is_stored_applied_and_confirmed(app, game, ada):
    raw = corpus("gmail_reply.eml", ada)
    done = run_ingest(app, raw)
    assert done.returncode == 0, done.stderr.decode()
    [row] = inbound()
    assert (row.source, row.status, row.raw) == ("pipe", "applied", raw)
    assert f"inbound message {row.id}: applied" in done.stdout.decode()
    assert turns.standing_turn(game.open_round, ada).question == parse_question("A red")
    assert [m.kind for m in outbox()] == ["confirmation"]


def test_a_refused_or_ignored_message_still_exits_zero_because_it_is_handled(app, game, ben):
    refused = run_ingest(app, corpus("missing_key.eml"))
    ignored = run_ingest(app, corpus("vacation.eml", ben))
    assert (refused.returncode, ignored.returncode) == (0, 0)
    assert [r.status for r in inbound()] == ["refused", "ignored"]


def test_an_unreachable_database_exits_75_so_the_mta_retries(app, game, ada):
    done = run_ingest(app, corpus("gmail_reply.eml", ada), database=UNREACHABLE)
    assert done.returncode == 75
    assert "database unavailable" in done.stderr.decode()
    assert inbound() == []


def test_empty_input_exits_65_as_data_that_cannot_be_stored(app, game):
    done = run_ingest(app, b"")
    assert done.returncode == 65
    assert "empty message" in done.stderr.decode()
    assert inbound() == []
