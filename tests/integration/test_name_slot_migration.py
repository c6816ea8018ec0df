"""Migration 3e9d7b1c5a62: mails that share a body but for the reader's name.

Upgraded, older mails read as before; downgraded, each mail with a name gets a
body of its own with the name written in, so no mail loses its greeting.
"""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage

BEFORE = "8c7a01e58f81"
MAIL = ("INSERT INTO outbox_message (kind, to_addr, subject, body_id, headers, message_id, "
        "status, attempts, created_at, next_attempt_at, last_error{slot}) VALUES ('round_opened', "
        "'x@example.org', 'Round 1', :body, '{{}}', :mid, 'pending', 0, '2026-01-01 00:00:00', "
        "'2026-01-01 00:00:00', ''{value})")


def bodies() -> list[tuple[str, str, str | None]]:
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(
            "SELECT o.message_id, b.text, b.html FROM outbox_message o "
            "JOIN mail_body b ON b.id = o.body_id ORDER BY o.id"))]


def test_a_shared_body_with_names_is_written_out_per_mail_on_the_way_down(empty_url):
    app = create_app({"SQLALCHEMY_DATABASE_URI": empty_url})
    with app.app_context():
        upgrade(revision=BEFORE)
        with db.engine.begin() as conn:
            conn.execute(text("INSERT INTO mail_body (text, html) VALUES ('old', '<p>old</p>')"))
            conn.execute(text(MAIL.format(slot="", value="")), {"body": 1, "mid": "<old@x>"})
        upgrade()
        assert db.session.get(OutboxMessage, 1).body_text == "old"
        db.session.commit()
        with db.engine.begin() as conn:
            conn.execute(text("INSERT INTO mail_body (text, html, slot_text, slot_html) VALUES "
                              "('Hello ,\nround 1', '<p>Hello ,</p>', 6, 9)"))
            for mid, name in (("<a@x>", "Ada"), ("<b@x>", "B&<o>")):
                conn.execute(text(MAIL.format(slot=", slot", value=", :name")),
                             {"body": 2, "mid": mid, "name": name})
        db.session.expire_all()
        assert db.session.get(OutboxMessage, 3).body_html == "<p>Hello B&amp;&lt;o&gt;,</p>"
        shared = bodies()
        db.session.remove()  # its reads would hold a lock the downgrade waits for
        downgrade(revision=BEFORE)
        assert bodies() == [
            ("<old@x>", "old", "<p>old</p>"),
            ("<a@x>", "Hello Ada,\nround 1", "<p>Hello Ada,</p>"),
            ("<b@x>", "Hello B&<o>,\nround 1", "<p>Hello B&amp;&lt;o&gt;,</p>"),
        ]
        assert shared[1][1] == "Hello ,\nround 1"
        upgrade()
        db.session.remove()
        db.engine.dispose()
