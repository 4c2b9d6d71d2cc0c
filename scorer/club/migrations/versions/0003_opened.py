"""When a table last opened a match (its first move, or resumed, or the table renamed): a table that left one
match for another is told from two tables given one name.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.add_column("matches", sa.Column("opened_at", sa.DateTime, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("opened_at")
