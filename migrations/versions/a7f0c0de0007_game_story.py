"""the game told afterwards, stored

A finished game's story is computed once by a job, after the commit that ends
the game, and stored here; pages, the API and the final report mail read it
(issue 18, 3). One row per game and record keeps the same story from being
computed twice at once.

Revision ID: a7f0c0de0007
Revises: f6f0c0de0006
Create Date: 2026-12-01 20:40:00

"""
from alembic import op
import sqlalchemy as sa



# revision identifiers, used by Alembic.
revision = 'a7f0c0de0007'
down_revision = 'f6f0c0de0006'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'game_story',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('after_round', sa.Integer(), nullable=False),
        sa.Column('state', sa.String(length=10), nullable=False),
        sa.Column('final_report', sa.Boolean(), nullable=False),
        sa.Column('data', sa.Text(), nullable=True),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('error', sa.Text(), nullable=False),
        sa.Column('requested_at', sa.DateTime(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=True),
        sa.Column('computed_at', sa.DateTime(), nullable=True),
        sa.Column('seconds', sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_game_story_game_id_game')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_game_story')),
        sa.UniqueConstraint('game_id', 'after_round', name=op.f('uq_game_story_game_id_after_round')),
    )
    with op.batch_alter_table('game_story', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_story_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_story_state'), ['state'], unique=False)


def downgrade():
    with op.batch_alter_table('game_story', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_story_state'))
        batch_op.drop_index(batch_op.f('ix_game_story_game_id'))
    op.drop_table('game_story')
