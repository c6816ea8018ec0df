"""The embedded SQLite database: write-ahead log, every commit still synced."""

from __future__ import annotations

from sqlalchemy import text

from vpsleuth import create_app
from vpsleuth.extensions import db


def test_sqlite_runs_in_wal_mode_and_syncs_every_commit(tmp_path):
    path = tmp_path / "v.db"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        with db.engine.connect() as conn:
            mode = conn.execute(text("PRAGMA journal_mode")).scalar()
            synchronous = conn.execute(text("PRAGMA synchronous")).scalar()
            conn.execute(text("CREATE TABLE t (x)"))
            conn.commit()
        db.engine.dispose()
    assert (mode, synchronous) == ("wal", 2)  # 2 is FULL: no commit is lost on power loss
