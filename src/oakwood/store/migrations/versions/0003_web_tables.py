"""Tables of ``oakwood serve``: seats, token digests and the turn clock of each, beside its game row.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("turn_seconds", sa.Float, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("web_tables")
