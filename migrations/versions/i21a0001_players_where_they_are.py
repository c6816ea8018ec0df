"""players where they are: push subscriptions, a game's chat webhook, the notice queue

Web Push subscriptions per person and device, one incoming webhook per game, the
durable queue both channels send through, and the site's own kept keys (VAPID)
(issue 21).

Revision ID: i21a0001
Revises: i20a0001
Create Date: 2026-12-06 04:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'i21a0001'
down_revision = 'i20a0001'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'push_subscription',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('endpoint', sa.String(length=2000), nullable=False),
        sa.Column('p256dh', sa.String(length=200), nullable=False),
        sa.Column('auth', sa.String(length=100), nullable=False),
        sa.Column('label', sa.String(length=120), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('last_sent_at', sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_push_subscription')),
        sa.UniqueConstraint('endpoint', name=op.f('uq_push_subscription_endpoint')),
    )
    with op.batch_alter_table('push_subscription', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_push_subscription_email'), ['email'],
                              unique=False)
    op.create_table(
        'game_webhook',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('url', sa.String(length=2000), nullable=False),
        sa.Column('format', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('last_at', sa.DateTime(), nullable=True),
        sa.Column('last_ok', sa.Boolean(), nullable=True),
        sa.Column('last_result', sa.String(length=300), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'],
                                name=op.f('fk_game_webhook_game_id_game')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_game_webhook')),
        sa.UniqueConstraint('game_id', name=op.f('uq_game_webhook_game_id')),
    )
    op.create_table(
        'notice',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('channel', sa.String(length=8), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('subscription_id', sa.Integer(), nullable=True),
        sa.Column('webhook_id', sa.Integer(), nullable=True),
        sa.Column('topic', sa.String(length=32), nullable=True),
        sa.Column('payload', sa.Text(), nullable=False),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('next_attempt_at', sa.DateTime(), nullable=False),
        sa.Column('claimed_at', sa.DateTime(), nullable=True),
        sa.Column('sent_at', sa.DateTime(), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_notice_game_id_game')),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_notice_player_id_player')),
        sa.ForeignKeyConstraint(['subscription_id'], ['push_subscription.id'],
                                name=op.f('fk_notice_subscription_id_push_subscription'),
                                ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['webhook_id'], ['game_webhook.id'],
                                name=op.f('fk_notice_webhook_id_game_webhook'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_notice')),
    )
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notice_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_subscription_id'), ['subscription_id'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_notice_webhook_id'), ['webhook_id'], unique=False)
        batch_op.create_index('ix_notice_status_next', ['status', 'next_attempt_at'],
                              unique=False)
    op.create_table(
        'site_key',
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('value', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('name', name=op.f('pk_site_key')),
    )


def downgrade():
    op.drop_table('site_key')
    op.drop_table('notice')
    op.drop_table('game_webhook')
    op.drop_table('push_subscription')
