"""Migrations: from an empty database and from every earlier revision to the newest.

Run on SQLite and on a PostgreSQL database of their own; at the end the schema
must be exactly what the models describe (autogenerate finds nothing to do).
"""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade
from old_rows import old_game
from sqlalchemy import MetaData, inspect, text

from vpsleuth import create_app
from vpsleuth.extensions import db


def revisions(app) -> list[str]:
    config = app.extensions["migrate"].migrate.get_config()
    script = ScriptDirectory.from_config(config)
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def schema_differences() -> list:
    with db.engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn), db.metadata)


def test_an_empty_database_upgrades_to_exactly_the_models(empty_url):
    app = create_app({"SQLALCHEMY_DATABASE_URI": empty_url})
    with app.app_context():
        upgrade()
        assert schema_differences() == []
        db.engine.dispose()


def test_every_earlier_revision_upgrades_to_the_newest_with_its_data(empty_url):
    """Each earlier revision, reached by downgrading from the newest, holds a game and a
    player of its time, which upgrade to the newest with the schema the models describe;
    at the end the downgrades reach an empty database.

    Walking down from the newest costs half the steps of starting again from the
    base for each revision, and goes through every downgrade on the way.
    """
    app = create_app({"SQLALCHEMY_DATABASE_URI": empty_url})
    with app.app_context():
        history = revisions(app)
        assert len(history) >= 2
        upgrade()
        for older in reversed(history[:-1]):
            downgrade(revision=older)
            with db.engine.begin() as conn:
                tables = MetaData()
                tables.reflect(conn)
                for table in reversed(tables.sorted_tables):  # the rows the newer step left
                    if table.name != "alembic_version":
                        conn.execute(table.delete())
                conn.execute(text(old_game("Old game", "setup")))
                game_id = conn.execute(text("SELECT id FROM game")).scalar_one()
                conn.execute(text(
                    "INSERT INTO player (game_id, name, email, language, active, joined_at) "
                    f"VALUES ({game_id}, 'Ada', 'ada@example.org', 'en', true, "
                    "'2026-01-01 00:00:00')"))
            upgrade()
            with db.engine.connect() as conn:
                names = conn.execute(text("SELECT name FROM game")).scalars().all()
                player = conn.execute(text("SELECT name, email FROM player")).one()
            assert names == ["Old game"], older
            assert tuple(player) == ("Ada", "ada@example.org"), older
            assert schema_differences() == [], older
        downgrade(revision="base")
        with db.engine.connect() as conn:
            assert set(inspect(conn).get_table_names()) <= {"alembic_version"}
        db.engine.dispose()


def test_outbox_mails_keep_their_bodies_across_the_mail_body_migration(empty_url):
    """0b7e4c2a9d15 moves the bodies into mail_body, and its downgrade moves them back."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": empty_url})
    mails = [("<a@x>", "Grüße\nline 2", "<p>Grüße</p>"), ("<b@x>", "plain only", None)]
    with app.app_context():
        upgrade(revision="f55e18e7308d")
        with db.engine.begin() as conn:
            for message_id, body_text, body_html in mails:
                conn.execute(text(
                    "INSERT INTO outbox_message (kind, to_addr, subject, body_text, body_html, "
                    "headers, message_id, status, attempts, created_at, next_attempt_at, "
                    "last_error) VALUES ('report', 'ada@example.org', 'Round 1', :t, :h, '{}', "
                    ":m, 'pending', 0, '2026-01-01 00:00:00', '2026-01-01 00:00:00', '')"),
                    {"t": body_text, "h": body_html, "m": message_id})
        upgrade()
        assert schema_differences() == []
        with db.engine.begin() as conn:
            moved = conn.execute(text(
                "SELECT o.message_id, b.text, b.html FROM outbox_message o "
                "JOIN mail_body b ON b.id = o.body_id ORDER BY o.id")).all()
            # a body written after the upgrade gets an id of its own
            conn.execute(text("INSERT INTO mail_body (text) VALUES ('new')"))
            ids = conn.execute(text("SELECT id FROM mail_body ORDER BY id")).scalars().all()
        assert [tuple(row) for row in moved] == mails
        assert len(set(ids)) == 3
        downgrade(revision="f55e18e7308d")
        with db.engine.connect() as conn:
            back = conn.execute(text("SELECT message_id, body_text, body_html FROM "
                                     "outbox_message ORDER BY id")).all()
        assert [tuple(row) for row in back] == mails
        db.engine.dispose()
