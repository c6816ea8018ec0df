"""accounts, mail and player preferences

Revision ID: ddd6dd1b4118
Revises: db2dd53e9a7e
Create Date: 2026-11-30 08:02:13.940880

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'ddd6dd1b4118'
down_revision = 'db2dd53e9a7e'
branch_labels = None
depends_on = None


def upgrade():
    # Columns added to existing tables get server defaults, so upgrading a
    # database that already holds games works.
    op.create_table('game_master',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('language', sa.String(length=2), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_master')),
    sa.UniqueConstraint('email', name=op.f('uq_game_master_email'))
    )
    op.create_table('login_token',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('nonce', sa.String(length=64), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.Column('used_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_token')),
    sa.UniqueConstraint('nonce', name=op.f('uq_login_token_nonce'))
    )
    with op.batch_alter_table('login_token', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_login_token_email'), ['email'], unique=False)

    op.create_table('scheduler_state',
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('value', sa.Text(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_scheduler_state'))
    )
    op.create_table('api_token',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('label', sa.String(length=80), nullable=False),
    sa.Column('game_master_id', sa.Integer(), nullable=True),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('last_used_at', sa.DateTime(), nullable=True),
    sa.Column('revoked_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['game_master_id'], ['game_master.id'], name=op.f('fk_api_token_game_master_id_game_master')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_api_token_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_api_token')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_api_token_token_hash'))
    )
    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_api_token_game_master_id'), ['game_master_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_api_token_player_id'), ['player_id'], unique=False)

    op.create_table('outbox_message',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('to_addr', sa.String(length=254), nullable=False),
    sa.Column('subject', sa.String(length=300), nullable=False),
    sa.Column('body_text', sa.Text(), nullable=False),
    sa.Column('body_html', sa.Text(), nullable=True),
    sa.Column('headers', sa.Text(), nullable=False),
    sa.Column('message_id', sa.String(length=250), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(), nullable=False),
    sa.Column('claimed_at', sa.DateTime(), nullable=True),
    sa.Column('sent_at', sa.DateTime(), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_outbox_message_game_id_game')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_outbox_message_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox_message')),
    sa.UniqueConstraint('message_id', name=op.f('uq_outbox_message_message_id'))
    )
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_message_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_message_next_attempt_at'), ['next_attempt_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_message_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_message_status'), ['status'], unique=False)

    op.create_table('reminder_sent',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('hours_before', sa.Integer(), nullable=False),
    sa.Column('sent_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_reminder_sent_player_id_player')),
    sa.ForeignKeyConstraint(['round_id'], ['round.id'], name=op.f('fk_reminder_sent_round_id_round')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_reminder_sent')),
    sa.UniqueConstraint('round_id', 'player_id', 'hours_before', name=op.f('uq_reminder_sent_round_id_player_id_hours_before'))
    )
    with op.batch_alter_table('reminder_sent', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reminder_sent_round_id'), ['round_id'], unique=False)

    op.create_table('inbound_message',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('source', sa.String(length=8), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('message_id', sa.String(length=998), nullable=True),
    sa.Column('from_addr', sa.String(length=998), nullable=False),
    sa.Column('subject', sa.Text(), nullable=False),
    sa.Column('received_at', sa.DateTime(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('error', sa.Text(), nullable=False),
    sa.Column('body_text', sa.LargeBinary(), nullable=True),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('turn_version_id', sa.Integer(), nullable=True),
    sa.Column('processed_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_inbound_message_game_id_game')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_inbound_message_player_id_player')),
    sa.ForeignKeyConstraint(['turn_version_id'], ['turn_version.id'], name=op.f('fk_inbound_message_turn_version_id_turn_version')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_inbound_message'))
    )
    with op.batch_alter_table('inbound_message', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_message_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_message_message_id'), ['message_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_message_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_message_status'), ['status'], unique=False)

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reminder_hours', sa.String(length=40), nullable=False, server_default='24,4'))
        batch_op.add_column(sa.Column('game_master_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_game_game_master_id'), ['game_master_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_game_game_master_id_game_master'), 'game_master', ['game_master_id'], ['id'])

    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('timezone', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('wants_round_mail', sa.Boolean(), nullable=False, server_default=sa.true()))
        batch_op.add_column(sa.Column('wants_reminders', sa.Boolean(), nullable=False, server_default=sa.true()))
        batch_op.add_column(sa.Column('wants_confirmations', sa.Boolean(), nullable=False, server_default=sa.true()))

    # ### end Alembic commands ###


def downgrade():
    # ### commands auto generated by Alembic - please adjust! ###
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('wants_confirmations')
        batch_op.drop_column('wants_reminders')
        batch_op.drop_column('wants_round_mail')
        batch_op.drop_column('timezone')

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_game_game_master_id_game_master'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_game_game_master_id'))
        batch_op.drop_column('game_master_id')
        batch_op.drop_column('reminder_hours')

    with op.batch_alter_table('inbound_message', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inbound_message_status'))
        batch_op.drop_index(batch_op.f('ix_inbound_message_player_id'))
        batch_op.drop_index(batch_op.f('ix_inbound_message_message_id'))
        batch_op.drop_index(batch_op.f('ix_inbound_message_game_id'))

    op.drop_table('inbound_message')
    with op.batch_alter_table('reminder_sent', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_reminder_sent_round_id'))

    op.drop_table('reminder_sent')
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_message_status'))
        batch_op.drop_index(batch_op.f('ix_outbox_message_player_id'))
        batch_op.drop_index(batch_op.f('ix_outbox_message_next_attempt_at'))
        batch_op.drop_index(batch_op.f('ix_outbox_message_game_id'))

    op.drop_table('outbox_message')
    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_api_token_player_id'))
        batch_op.drop_index(batch_op.f('ix_api_token_game_master_id'))

    op.drop_table('api_token')
    op.drop_table('scheduler_state')
    with op.batch_alter_table('login_token', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_login_token_email'))

    op.drop_table('login_token')
    op.drop_table('game_master')
    # ### end Alembic commands ###
