"""Migration f6f0c0de0006: the deduction aid is a house rule, off for existing games."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from old_rows import old_game
from sqlalchemy import inspect, text

from vpsleuth import create_app
from vpsleuth.extensions import db

BEFORE, REVISION = "e5f0c0de0005", "f6f0c0de0006"


def test_games_from_before_the_upgrade_have_the_aid_off_and_downgrade_drops_it(empty_url):
    app = create_app({"SQLALCHEMY_DATABASE_URI": empty_url})
    with app.app_context():
        upgrade(revision=BEFORE)
        with db.engine.begin() as conn:
            conn.execute(text(old_game()))
        upgrade(revision=REVISION)
        with db.engine.connect() as conn:
            aid = conn.execute(text("SELECT deduction_aid FROM game WHERE id = 1")).scalar()
        assert aid in (False, 0)
        downgrade(revision=BEFORE)
        columns = {c["name"] for c in inspect(db.engine).get_columns("game")}
        assert "deduction_aid" not in columns
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT name FROM game")).scalar() == "Old"
        db.engine.dispose()
