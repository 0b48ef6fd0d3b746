"""Fenced, versioned writes: task.version, device_lease.fence, cancel requests; PAUSED needs no DDL.

Revision ID: 0002_fencing
Revises: 0001_initial
Create Date: 2026-12-01

After adding a revision, update HEAD_REVISION and KNOWN_REVISIONS in starebrain/store/schema.py.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = '0002_fencing'
down_revision: str | None = '0001_initial'
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('task', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('device_lease', schema=None) as batch_op:
        batch_op.add_column(sa.Column('fence', sa.Integer(), nullable=False, server_default='0'))
    op.create_table('cancel_request',
    sa.Column('task_id', sa.String(), nullable=False),
    sa.Column('requested_by', sa.String(), nullable=False),
    sa.Column('requested_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['task_id'], ['task.id'], ),
    sa.PrimaryKeyConstraint('task_id')
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('cancel_request')
    with op.batch_alter_table('device_lease', schema=None) as batch_op:
        batch_op.drop_column('fence')
    with op.batch_alter_table('task', schema=None) as batch_op:
        batch_op.drop_column('version')
