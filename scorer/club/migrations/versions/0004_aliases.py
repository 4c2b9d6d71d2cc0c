"""Other names of a player: a name merged into another player, or a player's name before a rename, is kept
so that a table typing it again scores for that player; a name separated again is kept as such.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.create_table(
        "aliases",
        sa.Column("name", sa.String(100), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("since", sa.DateTime, nullable=False),
        sa.Column("decided", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("aliases")
