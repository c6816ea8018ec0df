"""deadline after early resolution

A game says what the next deadline is after a round closed early (everyone
had sent a turn): "calendar" keeps the schedule's dates, "fresh" gives the
next round a whole interval from the moment the round closed. Existing games
keep the calendar, as before.

Revision ID: b2f0c0de0002
Revises: a1f0c0de0001
Create Date: 2026-11-30 16:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b2f0c0de0002'
down_revision = 'a1f0c0de0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('after_early', sa.String(length=8),
                                      server_default='calendar', nullable=False))


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('after_early')
