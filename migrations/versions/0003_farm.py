"""The farm: hosts with heartbeats, their phones with labels, and the task queue daemons claim from.

Revision ID: 0003_farm
Revises: 0002_fencing
Create Date: 2026-12-01

After adding a revision, update HEAD_REVISION and KNOWN_REVISIONS in starebrain/store/schema.py.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = '0003_farm'
down_revision: str | None = '0002_fencing'
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('farm_host',
    sa.Column('name', sa.String(), nullable=False),
    sa.Column('pid', sa.Integer(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('heartbeat_at', sa.DateTime(), nullable=False),
    sa.Column('state', sa.String(), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )
    op.create_table('farm_device',
    sa.Column('serial', sa.String(), nullable=False),
    sa.Column('host', sa.String(), nullable=False),
    sa.Column('present', sa.Boolean(), nullable=False),
    sa.Column('labels', sa.JSON(), nullable=False),
    sa.Column('seen_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('serial')
    )
    op.create_table('task_queue',
    sa.Column('task_id', sa.String(), nullable=False),
    sa.Column('serial', sa.String(), nullable=True),
    sa.Column('labels', sa.JSON(), nullable=False),
    sa.Column('state', sa.String(), nullable=False),
    sa.Column('enqueued_at', sa.DateTime(), nullable=False),
    sa.Column('claimed_at', sa.DateTime(), nullable=True),
    sa.Column('claimed_by', sa.String(), nullable=True),
    sa.ForeignKeyConstraint(['task_id'], ['task.id'], ),
    sa.PrimaryKeyConstraint('task_id')
    )
    op.create_index('ix_task_queue_state', 'task_queue', ['state', 'enqueued_at'])


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index('ix_task_queue_state', table_name='task_queue')
    for table in ("task_queue", "farm_device", "farm_host"):
        op.drop_table(table)
