"""Migration a1f0c0de0001: players who already showed up are "joined" after the upgrade.

The earliest of their own turns (mail, web, API) and the sessions of their
address (full, or opened by their own invitation) is taken; a player with
neither, or only a turn the GM entered, stays invited.
"""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from old_rows import old_game
from sqlalchemy import text

from vpsleuth import create_app
from vpsleuth.extensions import db

BEFORE, REVISION = "3e9d7b1c5a62", "a1f0c0de0001"
ROWS = [
    old_game("G"),
    *(f"INSERT INTO player (id, game_id, name, email, language, active, joined_at) VALUES "
      f"({i}, 1, '{name}', '{name.lower()}@example.org', 'en', true, '2026-01-01 00:00:00')"
      for i, name in enumerate(["Ada", "Ben", "Cy", "Dee", "Eve"], start=1)),
    # Ada: a full session on the 3rd and a mailed turn on the 2nd
    "INSERT INTO web_session (token_hash, email, created_at, last_seen_at, expires_at) VALUES "
    "('h1', 'ada@example.org', '2026-01-03 09:00:00', '2026-01-03 09:00:00', "
    "'2026-02-01 00:00:00')",
    "INSERT INTO turn_version (game_id, player_id, channel, text, received_at, entered_by, "
    "status, errors) VALUES (1, 1, 'email', :text, '2026-01-02 08:00:00', 'ada', 'accepted', '')",
    # Ben: a session opened by his invitation link
    "INSERT INTO web_session (token_hash, email, player_id, created_at, last_seen_at, "
    "expires_at) VALUES ('h2', 'ben@example.org', 2, '2026-01-04 10:00:00', "
    "'2026-01-04 10:00:00', '2026-02-01 00:00:00')",
    # Cy: only a turn the GM entered; Dee: an invitation session of another player
    "INSERT INTO turn_version (game_id, player_id, channel, text, received_at, entered_by, "
    "status, errors) VALUES (1, 3, 'gm', :text, '2026-01-02 08:00:00', 'gm', 'accepted', '')",
    "INSERT INTO web_session (token_hash, email, player_id, created_at, last_seen_at, "
    "expires_at) VALUES ('h3', 'dee@example.org', 5, '2026-01-04 10:00:00', "
    "'2026-01-04 10:00:00', '2026-02-01 00:00:00')",
]


def test_players_on_record_as_having_shown_up_are_joined_after_the_upgrade(empty_url):
    app = create_app({"SQLALCHEMY_DATABASE_URI": empty_url})
    with app.app_context():
        upgrade(revision=BEFORE)
        with db.engine.begin() as conn:
            for row in ROWS:
                conn.execute(text(row), {"text": b"TIP A RD1"} if ":text" in row else {})
        upgrade(revision=REVISION)
        with db.engine.connect() as conn:
            first = {name: at and str(at)[:19] for name, at in conn.execute(text(
                "SELECT name, first_signed_in_at FROM player ORDER BY id"))}
        assert first == {"Ada": "2026-01-02 08:00:00", "Ben": "2026-01-04 10:00:00",
                         "Cy": None, "Dee": None, "Eve": None}
        downgrade(revision=BEFORE)
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM player")).scalar() == 5
        db.engine.dispose()
