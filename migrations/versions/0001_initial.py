"""Initial schema: tasks, steps, attempts, confirmations, LLM calls, contexts, leases, events.

Datetimes are stored naive UTC (the store's UtcDateTime type re-attaches UTC on read).

Revision ID: 0001_initial
Revises: (none)
Create Date: 2026-11-30

After adding a revision, update HEAD_REVISION and KNOWN_REVISIONS in starebrain/store/schema.py.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = '0001_initial'
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('agent_context',
    sa.Column('device_serial', sa.String(), nullable=False),
    sa.Column('current_package', sa.String(), nullable=False),
    sa.Column('current_activity', sa.String(), nullable=False),
    sa.Column('recent_switches', sa.JSON(), nullable=False),
    sa.Column('entities', sa.JSON(), nullable=False),
    sa.Column('captured_at', sa.DateTime(), nullable=False),
    sa.Column('confidence', sa.String(), nullable=False),
    sa.Column('saved_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('device_serial')
    )
    op.create_table('device_lease',
    sa.Column('serial', sa.String(), nullable=False),
    sa.Column('holder', sa.String(), nullable=False),
    sa.Column('token', sa.String(), nullable=False),
    sa.Column('pid', sa.Integer(), nullable=False),
    sa.Column('host', sa.String(), nullable=False),
    sa.Column('pid_started', sa.String(), nullable=True),
    sa.Column('acquired_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('serial')
    )
    op.create_table('task',
    sa.Column('id', sa.String(), nullable=False),
    sa.Column('instruction', sa.String(), nullable=False),
    sa.Column('device_serial', sa.String(), nullable=False),
    sa.Column('cursor', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(), nullable=False),
    sa.Column('status_reason', sa.String(), nullable=False),
    sa.Column('replan_count', sa.Integer(), nullable=False),
    sa.Column('source', sa.String(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.Column('prompt_tokens', sa.Integer(), nullable=False),
    sa.Column('completion_tokens', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_task_serial_created', 'task', ['device_serial', 'created_at'])
    op.create_index('ix_task_status_updated', 'task', ['status', 'updated_at'])

    op.create_table('event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('task_id', sa.String(), nullable=True),
    sa.Column('kind', sa.String(), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sqlite_autoincrement=True
    )
    op.create_index('ix_event_task', 'event', ['task_id', 'id'])

    op.create_table('llm_call',
    sa.Column('id', sa.String(), nullable=False),
    sa.Column('task_id', sa.String(), nullable=True),
    sa.Column('purpose', sa.String(), nullable=False),
    sa.Column('model', sa.String(), nullable=False),
    sa.Column('prompt_tokens', sa.Integer(), nullable=False),
    sa.Column('completion_tokens', sa.Integer(), nullable=False),
    sa.Column('latency_ms', sa.Float(), nullable=False),
    sa.Column('outcome', sa.String(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['task_id'], ['task.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_llm_call_task', 'llm_call', ['task_id', 'created_at'])

    op.create_table('step',
    sa.Column('task_id', sa.String(), nullable=False),
    sa.Column('id', sa.String(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('instruction', sa.String(), nullable=False),
    sa.Column('action_kind', sa.String(), nullable=False),
    sa.Column('action', sa.JSON(), nullable=False),
    sa.Column('target_package', sa.String(), nullable=True),
    sa.Column('expect', sa.JSON(), nullable=True),
    sa.Column('irreversible', sa.Boolean(), nullable=False),
    sa.Column('status', sa.String(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('superseded_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['task_id'], ['task.id'], ),
    sa.PrimaryKeyConstraint('task_id', 'id')
    )
    op.create_index('ix_step_task_position', 'step', ['task_id', 'position'])

    op.create_table('attempt',
    sa.Column('id', sa.String(), nullable=False),
    sa.Column('task_id', sa.String(), nullable=False),
    sa.Column('step_id', sa.String(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('ended_at', sa.DateTime(), nullable=True),
    sa.Column('outcome', sa.String(), nullable=False),
    sa.Column('error', sa.String(), nullable=False),
    sa.Column('obstructions', sa.JSON(), nullable=False),
    sa.Column('screenshot_path', sa.String(), nullable=True),
    sa.Column('hierarchy_path', sa.String(), nullable=True),
    sa.Column('hierarchy_hash', sa.String(), nullable=True),
    sa.Column('phases_ms', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['task_id', 'step_id'], ['step.task_id', 'step.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_attempt_task_step', 'attempt', ['task_id', 'step_id'])

    op.create_table('confirmation',
    sa.Column('id', sa.String(), nullable=False),
    sa.Column('task_id', sa.String(), nullable=False),
    sa.Column('step_id', sa.String(), nullable=False),
    sa.Column('approved_hash', sa.String(), nullable=False),
    sa.Column('reason', sa.String(), nullable=False),
    sa.Column('asked_at', sa.DateTime(), nullable=False),
    sa.Column('decided_at', sa.DateTime(), nullable=True),
    sa.Column('decision', sa.String(), nullable=True),
    sa.Column('decided_by', sa.String(), nullable=True),
    sa.ForeignKeyConstraint(['task_id', 'step_id'], ['step.task_id', 'step.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_confirmation_task', 'confirmation', ['task_id', 'asked_at'])


def downgrade() -> None:
    """Downgrade schema (drops everything; only for development)."""
    for table in ("confirmation", "attempt", "step", "llm_call", "event", "task", "device_lease",
                  "agent_context"):
        op.drop_table(table)
