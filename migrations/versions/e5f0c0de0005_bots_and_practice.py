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
    pass  # placeholder, filled in by the change that needs it


def downgrade():
    pass
