"""The first release's schema: players, matches, seats, rounds, moves.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table("players", sa.Column("id", sa.Integer, primary_key=True), sa.Column("name", sa.String(100), nullable=False, unique=True))
    op.create_table(
        "matches",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("partnership", sa.Boolean, nullable=False),
        sa.Column("played_at", sa.DateTime, nullable=True),
        sa.Column("imported_at", sa.DateTime, nullable=False),
        sa.Column("table_name", sa.String(100), nullable=True),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("log", sa.Text, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("match_id", sa.String(64), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("side", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("against", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("shared", sa.Boolean, nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("move_points", sa.Integer, nullable=False),
    )
    op.create_table(
        "rounds",
        sa.Column("match_id", sa.String(64), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("blocked", sa.Boolean, nullable=False),
        sa.Column("finisher", sa.String(100), nullable=True),
    )
    op.create_table(
        "moves",
        sa.Column("match_id", sa.String(64), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("line", sa.Integer, primary_key=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("type", sa.String(20), nullable=False),
        sa.Column("player", sa.String(100), nullable=True),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("t", sa.Float, nullable=True),
        sa.UniqueConstraint("match_id", "line"),
    )
    op.create_index("ix_seats_player", "seats", ["player_id"])


def downgrade() -> None:
    for table in ("moves", "rounds", "seats", "matches", "players"):
        op.drop_table(table)
