"""Alembic environment: the engine comes from the caller (scorer.club.connection.migrate)."""

from alembic import context

from scorer.club.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through scorer.club.connection.migrate(engine)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
