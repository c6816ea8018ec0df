"""mail bodies shared by mails that differ only in the reader's name

A round's mail greets each player by name, so every player's copy was a body
of its own. Now the body is stored once without the name, with where the name
goes (mail_body.slot_text and slot_html, character offsets), and each mail
keeps the name it carries (outbox_message.slot). Existing mails have none of
these and stay as they are; the downgrade gives each mail with a name a body
of its own with the name written in.

Revision ID: 3e9d7b1c5a62
Revises: 8c7a01e58f81
Create Date: 2026-12-01 16:00:00

"""
import sqlalchemy as sa
from alembic import op
from markupsafe import escape

# revision identifiers, used by Alembic.
revision = '3e9d7b1c5a62'
down_revision = '8c7a01e58f81'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('mail_body', schema=None) as batch_op:
        batch_op.add_column(sa.Column('slot_text', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('slot_html', sa.Integer(), nullable=True))
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.add_column(sa.Column('slot', sa.Text(), nullable=True))


def _spliced(body, at, name):
    return body if body is None or at is None else body[:at] + name + body[at:]


def downgrade():
    conn = op.get_bind()
    named = conn.execute(sa.text(
        "SELECT o.id, o.slot, b.text, b.html, b.slot_text, b.slot_html FROM outbox_message o "
        "JOIN mail_body b ON b.id = o.body_id WHERE o.slot IS NOT NULL "
        "AND (b.slot_text IS NOT NULL OR b.slot_html IS NOT NULL) ORDER BY o.id")).all()
    for mail_id, name, text, html, at_text, at_html in named:
        body_id = conn.execute(sa.text(
            "INSERT INTO mail_body (text, html) VALUES (:text, :html) RETURNING id"),
            {"text": _spliced(text, at_text, name),
             "html": _spliced(html, at_html, str(escape(name)))}).scalar_one()
        conn.execute(sa.text("UPDATE outbox_message SET body_id = :body WHERE id = :id"),
                     {"body": body_id, "id": mail_id})
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.drop_column('slot')
    with op.batch_alter_table('mail_body', schema=None) as batch_op:
        batch_op.drop_column('slot_html')
        batch_op.drop_column('slot_text')
