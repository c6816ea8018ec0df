"""the community's record: archive and rating flags, display names, leavers, ratings

Games may be public (the archive) and rated; a seat may carry a display name
and, once its person has left, a "former player" number; a person's profile
and ratings hang on their address (issue 22).

Revision ID: i22a0001
Revises: a7f0c0de0007
Create Date: 2026-12-02 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'i22a0001'
down_revision = 'a7f0c0de0007'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('public', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
        batch_op.add_column(sa.Column('rated', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('display_name', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('left_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('former_number', sa.Integer(), nullable=True))
    op.create_table(
        'profile',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('display_name', sa.String(length=40), nullable=True),
        sa.Column('hide_from_leaderboard', sa.Boolean(), server_default=sa.false(),
                  nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_profile')),
        sa.UniqueConstraint('email', name=op.f('uq_profile_email')),
    )
    op.create_table(
        'rating',
        sa.Column('profile_id', sa.Integer(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('ordinal', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['profile_id'], ['profile.id'],
                                name=op.f('fk_rating_profile_id_profile')),
        sa.PrimaryKeyConstraint('profile_id', name=op.f('pk_rating')),
    )
    with op.batch_alter_table('rating', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rating_ordinal'), ['ordinal'], unique=False)
    op.create_table(
        'rating_change',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('profile_id', sa.Integer(), nullable=True),
        sa.Column('rank', sa.Integer(), nullable=False),
        sa.Column('mu_before', sa.Float(), nullable=False),
        sa.Column('sigma_before', sa.Float(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('ordinal', sa.Float(), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'],
                                name=op.f('fk_rating_change_game_id_game')),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_rating_change_player_id_player')),
        sa.ForeignKeyConstraint(['profile_id'], ['profile.id'],
                                name=op.f('fk_rating_change_profile_id_profile')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_rating_change')),
        sa.UniqueConstraint('game_id', 'player_id',
                            name=op.f('uq_rating_change_game_id_player_id')),
    )
    with op.batch_alter_table('rating_change', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rating_change_game_id'), ['game_id'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_rating_change_profile_id'), ['profile_id'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('rating_change', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rating_change_profile_id'))
        batch_op.drop_index(batch_op.f('ix_rating_change_game_id'))
    op.drop_table('rating_change')
    with op.batch_alter_table('rating', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rating_ordinal'))
    op.drop_table('rating')
    op.drop_table('profile')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('former_number')
        batch_op.drop_column('left_at')
        batch_op.drop_column('display_name')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('rated')
        batch_op.drop_column('public')
