"""Migration e5f0c0de0005: bot levels and practice games; existing rows are neither."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from old_rows import old_game
from sqlalchemy import inspect, text

from vpsleuth import create_app
from vpsleuth.extensions import db

BEFORE, REVISION = "d4f0c0de0004", "e5f0c0de0005"
PLAYER = ("INSERT INTO player (id, game_id, name, email, language, active, wants_round_mail, "
          "wants_reminders, wants_confirmations, joined_at) VALUES (1, 1, 'Ada', "
          "'ada@example.org', 'en', true, true, true, true, '2026-01-01 00:00:00')")


def test_old_games_are_real_and_old_players_human_and_downgrade_drops_both(empty_url):
    app = create_app({"SQLALCHEMY_DATABASE_URI": empty_url})
    with app.app_context():
        upgrade(revision=BEFORE)
        with db.engine.begin() as conn:
            conn.execute(text(old_game()))
            conn.execute(text(PLAYER))
        upgrade(revision=REVISION)
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT practice FROM game")).scalar() in (False, 0)
            assert conn.execute(text("SELECT bot_level FROM player")).scalar() is None
        downgrade(revision=BEFORE)
        assert "practice" not in {c["name"] for c in inspect(db.engine).get_columns("game")}
        assert "bot_level" not in {c["name"] for c in inspect(db.engine).get_columns("player")}
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT name FROM player")).scalar() == "Ada"
        db.engine.dispose()
