"""sessions, scoped links, rate events, key generation

Server-side browser sessions (sign-out ends them; all of an address can be
ended), invitation links bound to one player, counted requests for limits that
hold across workers, a per-player key generation that retires reply keys and
feed links when the address changes, and an index for the caps on replies to
unknown senders (they count recent outbox mails of one kind). Only additions:
nothing is lost.

Revision ID: 8c7a01e58f81
Revises: 5c1d8e2f7a40
Create Date: 2026-11-30 15:20:10.617001

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8c7a01e58f81'
down_revision = '5c1d8e2f7a40'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('rate_event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('bucket', sa.String(length=32), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rate_event'))
    )
    with op.batch_alter_table('rate_event', schema=None) as batch_op:
        batch_op.create_index('ix_rate_event_bucket_key', ['bucket', 'key', 'created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_rate_event_created_at'), ['created_at'], unique=False)

    op.create_table('web_session',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('last_seen_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.Column('ended_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_web_session_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_web_session')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_web_session_token_hash'))
    )
    with op.batch_alter_table('web_session', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_web_session_email'), ['email'], unique=False)
        batch_op.create_index(batch_op.f('ix_web_session_player_id'), ['player_id'], unique=False)

    with op.batch_alter_table('login_token', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_login_token_player_id'), ['player_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_login_token_player_id_player'), 'player', ['player_id'], ['id'])

    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('key_generation', sa.Integer(), server_default='0', nullable=False))

    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.create_index('ix_outbox_message_kind_created', ['kind', 'created_at'], unique=False)



def downgrade():
    with op.batch_alter_table('outbox_message', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_message_kind_created')

    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('key_generation')

    with op.batch_alter_table('login_token', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_login_token_player_id_player'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_login_token_player_id'))
        batch_op.drop_column('player_id')

    with op.batch_alter_table('web_session', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_web_session_player_id'))
        batch_op.drop_index(batch_op.f('ix_web_session_email'))

    op.drop_table('web_session')
    with op.batch_alter_table('rate_event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rate_event_created_at'))
        batch_op.drop_index('ix_rate_event_bucket_key')

    op.drop_table('rate_event')
