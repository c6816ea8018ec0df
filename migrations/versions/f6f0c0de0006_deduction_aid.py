"""the deduction aid house rule

Revision ID: f6f0c0de0006
Revises: e5f0c0de0005
Create Date: 2026-11-30 18:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f6f0c0de0006'
down_revision = 'e5f0c0de0005'
branch_labels = None
depends_on = None


def upgrade():
    pass  # placeholder, filled in by the change that needs it


def downgrade():
    pass
