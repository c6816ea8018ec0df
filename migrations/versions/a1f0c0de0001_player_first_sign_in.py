"""player first sign-in

When an invited player first showed up (signed in, or sent a turn by mail, web
or API): until then the GM's pages show the player as invited, not joined.
Existing players get the earliest such moment that is still on record.

Revision ID: a1f0c0de0001
Revises: 3e9d7b1c5a62
Create Date: 2026-11-30 16:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a1f0c0de0001'
down_revision = '3e9d7b1c5a62'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('first_signed_in_at', sa.DateTime(), nullable=True))
    conn = op.get_bind()
    # The player's own turns (not those the GM entered) and sessions of the address (a
    # full one, or one opened by this player's invitation link). Times are naive UTC.
    seen = sa.text("""
        SELECT p.id, MIN(t.received_at) FROM player p JOIN turn_version t ON t.player_id = p.id
         WHERE t.channel IN ('email', 'web', 'api') GROUP BY p.id
        UNION ALL
        SELECT p.id, MIN(s.created_at) FROM player p JOIN web_session s
            ON lower(s.email) = lower(p.email) AND (s.player_id IS NULL OR s.player_id = p.id)
         GROUP BY p.id""")
    first = {}
    for player_id, at in conn.execute(seen):
        if at is not None and (player_id not in first or at < first[player_id]):
            first[player_id] = at
    update = sa.text("UPDATE player SET first_signed_in_at = :at WHERE id = :id")
    for player_id, at in first.items():
        conn.execute(update, {"at": at, "id": player_id})


def downgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('first_signed_in_at')
