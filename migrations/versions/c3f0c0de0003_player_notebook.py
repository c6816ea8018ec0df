"""player notebook

A private notebook per player and game: the marks of a 36 x 8 grid (gems by
A-G and X) as one string, and free notes. Only an addition: nothing is lost.

Revision ID: c3f0c0de0003
Revises: b2f0c0de0002
Create Date: 2026-11-30 16:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3f0c0de0003'
down_revision = 'b2f0c0de0002'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('player_notebook',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('marks', sa.String(length=288), nullable=False),
    sa.Column('notes', sa.LargeBinary(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_player_notebook_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_notebook')),
    sa.UniqueConstraint('player_id', name=op.f('uq_player_notebook_player_id'))
    )


def downgrade():
    op.drop_table('player_notebook')
