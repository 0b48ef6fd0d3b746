"""Device tags: key=value pairs a person puts on one phone (`starebrain devices label`), matched by queued tasks.

Revision ID: 0004_device_tags
Revises: 0003_farm
Create Date: 2026-12-02

After adding a revision, update HEAD_REVISION and KNOWN_REVISIONS in starebrain/store/schema.py.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = '0004_device_tags'
down_revision: str | None = '0003_farm'
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('device_tag',
    sa.Column('serial', sa.String(), nullable=False),
    sa.Column('key', sa.String(), nullable=False),
    sa.Column('value', sa.String(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('serial', 'key')
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('device_tag')
