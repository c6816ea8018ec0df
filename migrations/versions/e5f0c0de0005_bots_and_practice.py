"""bot players and practice games

Revision ID: e5f0c0de0005
Revises: d4f0c0de0004
Create Date: 2026-11-30 18:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e5f0c0de0005'
down_revision = 'd4f0c0de0004'
branch_labels = None
depends_on = None


def upgrade():
    # A bot is a player with a level (easy, medium, hard) and no mailbox.
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot_level', sa.String(length=8), nullable=True))
    # A practice game: one human against bots, kept apart from real games.
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('practice', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('practice')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('bot_level')
