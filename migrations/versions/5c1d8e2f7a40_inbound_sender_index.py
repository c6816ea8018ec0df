"""inbound sender index

The per-sender hourly limit counts a sender's messages of the past hour for
every message received; without an index that is a scan of all mail ever
received.

Revision ID: 5c1d8e2f7a40
Revises: 0b7e4c2a9d15
Create Date: 2026-11-30 11:50:00

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '5c1d8e2f7a40'
down_revision = '0b7e4c2a9d15'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('inbound_message', schema=None) as batch_op:
        batch_op.create_index('ix_inbound_message_sender', ['from_addr', 'received_at'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('inbound_message', schema=None) as batch_op:
        batch_op.drop_index('ix_inbound_message_sender')
