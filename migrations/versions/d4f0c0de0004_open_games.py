"""open games: a game may be listed as open, with a player limit, and take join requests

Revision ID: d4f0c0de0004
Revises: c3f0c0de0003
Create Date: 2026-11-30 16:00:00

"""
from alembic import op
import sqlalchemy as sa



# revision identifiers, used by Alembic.
revision = 'd4f0c0de0004'
down_revision = 'c3f0c0de0003'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('open_to_join', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('max_players', sa.Integer(), nullable=True))

    op.create_table(
        'join_request',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('language', sa.String(length=2), nullable=False),
        sa.Column('message', sa.Text(), nullable=False),
        sa.Column('state', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('decided_at', sa.DateTime(), nullable=True),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'],
                                name=op.f('fk_join_request_game_id_game')),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_join_request_player_id_player')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_join_request')),
        sa.UniqueConstraint('game_id', 'email', name=op.f('uq_join_request_game_id_email')),
    )
    with op.batch_alter_table('join_request', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_join_request_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('join_request', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_join_request_game_id'))
    op.drop_table('join_request')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('max_players')
        batch_op.drop_column('open_to_join')
