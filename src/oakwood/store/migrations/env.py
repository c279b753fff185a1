"""Alembic environment: the store passes its open connection in ``config.attributes["connection"]``."""

from __future__ import annotations

from alembic import context

from oakwood.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("Oakwood's migrations run through oakwood.store (open_store or migrations.upgrade)")
# render_as_batch: SQLite cannot alter a column in place; batch mode rebuilds the table in later revisions.
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
