"""the deduction aid house rule

A game may switch on the deduction aid (issue 13, section 4): the players'
information sheet then shows what the public record has ruled out. Off by
default, and off for every game that existed before.

Revision ID: f6f0c0de0006
Revises: e5f0c0de0005
Create Date: 2026-11-30 18:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f6f0c0de0006'
down_revision = 'e5f0c0de0005'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deduction_aid', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('deduction_aid')
