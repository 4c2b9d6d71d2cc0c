"""Live tables: a match grows while it is played -- how many lines are stored, when it last changed,
the log's own start time, the match as the board shows it; an index on when matches were played.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.add_column("matches", sa.Column("lines", sa.Integer, nullable=False, server_default="0"))
    op.add_column("matches", sa.Column("updated_at", sa.DateTime, nullable=True))
    op.add_column("matches", sa.Column("started", sa.String(40), nullable=True))
    op.add_column("matches", sa.Column("board", sa.Text, nullable=True))  # filled as matches are written; older ones are read from their logs
    op.create_index("ix_matches_played_at", "matches", ["played_at"])
    connection = op.get_bind()
    table = sa.table("matches", sa.column("id", sa.String), sa.column("log", sa.Text), sa.column("lines", sa.Integer),
                     sa.column("imported_at", sa.DateTime), sa.column("updated_at", sa.DateTime))
    for ident, log in list(connection.execute(sa.select(table.c.id, table.c.log))):
        lines = log.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        connection.execute(sa.update(table).where(table.c.id == ident).values(lines=len(lines), updated_at=table.c.imported_at))


def downgrade() -> None:
    op.drop_index("ix_matches_played_at", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("board")
        batch.drop_column("started")
        batch.drop_column("updated_at")
        batch.drop_column("lines")
