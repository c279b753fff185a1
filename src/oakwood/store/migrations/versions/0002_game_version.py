"""Games remember the Oakwood version that started them (``play --resume`` continues a game only with it).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite alters a table by copying it; a nullable column keeps every earlier game valid
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("version", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("version")
