"""a season among strangers: absences, the missed-turn rule, substitutes, the game board

Revision ID: i20a0001
Revises: i22a0001
Create Date: 2026-12-04 21:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'i20a0001'
down_revision = 'i22a0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('missed_turn_rule', sa.String(length=20),
                                      server_default='none', nullable=False))
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('board_mail', sa.String(length=8),
                                      server_default='digest', nullable=False))
        batch_op.add_column(sa.Column('board_told_post_id', sa.Integer(), nullable=True))
    # The reader's board address in a mail body shared by many (models/mail.py).
    with op.batch_alter_table('mail_body', schema=None) as batch_op:
        batch_op.add_column(sa.Column('slot2_text', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('slot2_html', sa.Integer(), nullable=True))
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.add_column(sa.Column('slot2', sa.Text(), nullable=True))
    with op.batch_alter_table('round_result', schema=None) as batch_op:
        batch_op.add_column(sa.Column('repeated', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    with op.batch_alter_table('player_notebook', schema=None) as batch_op:
        # A seat handed on (services/seats.py): the notebook stays its writer's.
        batch_op.alter_column('player_id', existing_type=sa.Integer(), nullable=True)
        batch_op.add_column(sa.Column('kept_by', sa.String(length=254), nullable=True))
        batch_op.add_column(sa.Column('kept_game_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_player_notebook_kept_by'), ['kept_by'],
                              unique=False)
    op.create_table(
        'absence',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('starts', sa.Date(), nullable=False),
        sa.Column('ends', sa.Date(), nullable=False),
        sa.Column('note', sa.Text(), nullable=False),
        sa.Column('channel', sa.String(length=8), nullable=False),
        sa.Column('entered_by', sa.String(length=120), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('cancelled_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_absence_player_id_player')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_absence')),
    )
    with op.batch_alter_table('absence', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_absence_player_id'), ['player_id'], unique=False)
    op.create_table(
        'seat_change',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('from_round', sa.Integer(), nullable=False),
        sa.Column('old_name', sa.String(length=80), nullable=False),
        sa.Column('old_email', sa.String(length=254), nullable=False),
        sa.Column('new_name', sa.String(length=80), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('actor', sa.String(length=120), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_seat_change_player_id_player')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_seat_change')),
    )
    with op.batch_alter_table('seat_change', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_change_player_id'), ['player_id'],
                              unique=False)
    op.create_table(
        'board_post',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('author', sa.String(length=80), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('channel', sa.String(length=8), nullable=False),
        sa.Column('pinned', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('hidden_at', sa.DateTime(), nullable=True),
        sa.Column('hidden_by', sa.String(length=120), nullable=True),
        sa.Column('deleted_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'],
                                name=op.f('fk_board_post_game_id_game')),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_board_post_player_id_player')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_board_post')),
    )
    with op.batch_alter_table('board_post', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_board_post_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_board_post_player_id'), ['player_id'],
                              unique=False)


def downgrade():
    op.drop_table('board_post')
    op.drop_table('seat_change')
    op.drop_table('absence')
    with op.batch_alter_table('player_notebook', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_notebook_kept_by'))
        batch_op.drop_column('kept_game_id')
        batch_op.drop_column('kept_by')
        batch_op.alter_column('player_id', existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table('round_result', schema=None) as batch_op:
        batch_op.drop_column('repeated')
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.drop_column('slot2')
    with op.batch_alter_table('mail_body', schema=None) as batch_op:
        batch_op.drop_column('slot2_html')
        batch_op.drop_column('slot2_text')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('board_told_post_id')
        batch_op.drop_column('board_mail')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('missed_turn_rule')
