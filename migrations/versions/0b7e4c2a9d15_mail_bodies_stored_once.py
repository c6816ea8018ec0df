"""mail bodies stored once

Each outbox mail's text and HTML move to mail_body, which mails queued
together with the same body share (a round report is the same for every
player of a language and zone). Existing mails keep their bodies: each gets
a mail_body row of its own, with the mail's id.

Revision ID: 0b7e4c2a9d15
Revises: f55e18e7308d
Create Date: 2026-11-30 11:45:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0b7e4c2a9d15'
down_revision = 'f55e18e7308d'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('mail_body',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('html', sa.Text(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mail_body'))
    )
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.add_column(sa.Column('body_id', sa.Integer(), nullable=True))
    op.execute("INSERT INTO mail_body (id, text, html) "
               "SELECT id, body_text, body_html FROM outbox_message")
    op.execute("UPDATE outbox_message SET body_id = id")
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("SELECT setval(pg_get_serial_sequence('mail_body', 'id'), "
                   "COALESCE((SELECT max(id) FROM mail_body), 0) + 1, false)")
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.alter_column('body_id', existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(batch_op.f('ix_outbox_message_body_id'), ['body_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_outbox_message_body_id_mail_body'),
                                    'mail_body', ['body_id'], ['id'])
        batch_op.drop_column('body_text')
        batch_op.drop_column('body_html')


def downgrade():
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.add_column(sa.Column('body_text', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('body_html', sa.Text(), nullable=True))
    op.execute("UPDATE outbox_message SET "
               "body_text = (SELECT text FROM mail_body WHERE mail_body.id = body_id), "
               "body_html = (SELECT html FROM mail_body WHERE mail_body.id = body_id)")
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.alter_column('body_text', existing_type=sa.Text(), nullable=False)
        batch_op.drop_constraint(batch_op.f('fk_outbox_message_body_id_mail_body'),
                                 type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_outbox_message_body_id'))
        batch_op.drop_column('body_id')
    op.drop_table('mail_body')
