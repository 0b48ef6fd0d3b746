"""SQLModel tables mirroring the pydantic models. Rows are an implementation detail of the store.

The schema is created and evolved only by Alembic (`migrations/`); a test checks these tables and
the migrations agree. JSON columns hold pydantic dumps; timestamps are timezone-aware UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect
from sqlmodel import Field, SQLModel


class UtcDateTime(sa.types.TypeDecorator[datetime]):
    """Stored as naive UTC text by SQLite; always handed back aware (UTC). Naive input is refused."""

    impl = sa.DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime refused: StareBrain stores timezone-aware UTC only")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


def _when(nullable: bool = False) -> Any:
    return Field(sa_type=UtcDateTime, nullable=nullable)


def _json(nullable: bool = False) -> Any:
    return Field(sa_type=sa.JSON, nullable=nullable)


class TaskRow(SQLModel, table=True):
    __tablename__ = "task"
    __table_args__ = (
        sa.Index("ix_task_status_updated", "status", "updated_at"),
        sa.Index("ix_task_serial_created", "device_serial", "created_at"),
    )

    id: str = Field(primary_key=True)
    instruction: str
    device_serial: str
    cursor: int = 0
    status: str
    status_reason: str = ""
    replan_count: int = 0
    source: str = "flow"
    created_at: datetime = _when()
    updated_at: datetime = _when()
    prompt_tokens: int = 0
    completion_tokens: int = 0
    version: int = 0  # compare-and-set: every write checks it and adds one


class CancelRequestRow(SQLModel, table=True):
    """A `cancel` of a task another process drives; that driver honours it at its next step."""

    __tablename__ = "cancel_request"

    task_id: str = Field(primary_key=True, foreign_key="task.id")
    requested_by: str
    requested_at: datetime = _when()


class StepRow(SQLModel, table=True):
    """A step of a task; `superseded_at` marks a step a replan removed (kept: attempts point at it)."""

    __tablename__ = "step"
    __table_args__ = (sa.Index("ix_step_task_position", "task_id", "position"),)

    task_id: str = Field(primary_key=True, foreign_key="task.id")
    id: str = Field(primary_key=True)
    position: int
    instruction: str
    action_kind: str
    action: dict[str, Any] = _json()
    target_package: str | None = None
    expect: dict[str, Any] | None = _json(nullable=True)
    irreversible: bool = False
    status: str
    result: dict[str, Any] | None = _json(nullable=True)
    superseded_at: datetime | None = _when(nullable=True)


class AttemptRow(SQLModel, table=True):
    __tablename__ = "attempt"
    __table_args__ = (
        sa.ForeignKeyConstraint(["task_id", "step_id"], ["step.task_id", "step.id"]),
        sa.Index("ix_attempt_task_step", "task_id", "step_id"),
    )

    id: str = Field(primary_key=True)
    task_id: str
    step_id: str
    number: int = 1
    started_at: datetime = _when()
    ended_at: datetime | None = _when(nullable=True)
    outcome: str
    error: str = ""
    obstructions: list[str] = _json()
    screenshot_path: str | None = None
    hierarchy_path: str | None = None
    hierarchy_hash: str | None = None
    phases_ms: dict[str, float] = _json()


class ConfirmationRow(SQLModel, table=True):
    __tablename__ = "confirmation"
    __table_args__ = (
        sa.ForeignKeyConstraint(["task_id", "step_id"], ["step.task_id", "step.id"]),
        sa.Index("ix_confirmation_task", "task_id", "asked_at"),
    )

    id: str = Field(primary_key=True)
    task_id: str
    step_id: str
    approved_hash: str
    reason: str
    asked_at: datetime = _when()
    decided_at: datetime | None = _when(nullable=True)
    decision: str | None = None
    decided_by: str | None = None


class LlmCallRow(SQLModel, table=True):
    __tablename__ = "llm_call"
    __table_args__ = (sa.Index("ix_llm_call_task", "task_id", "created_at"),)

    id: str = Field(primary_key=True)
    task_id: str | None = Field(default=None, foreign_key="task.id")
    purpose: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    outcome: str = "ok"
    created_at: datetime = _when()


class AgentContextRow(SQLModel, table=True):
    """The last persisted context of each device (restored at LOW confidence)."""

    __tablename__ = "agent_context"

    device_serial: str = Field(primary_key=True)
    current_package: str = ""
    current_activity: str = ""
    recent_switches: list[dict[str, Any]] = _json()
    entities: dict[str, str] = _json()
    captured_at: datetime = _when()
    confidence: str
    saved_at: datetime = _when()


class DeviceLeaseRow(SQLModel, table=True):
    """Who drives a device now; `token` tells one holding apart from the next."""

    __tablename__ = "device_lease"

    serial: str = Field(primary_key=True)
    holder: str
    token: str
    pid: int
    host: str
    pid_started: str | None = None
    acquired_at: datetime = _when()
    expires_at: datetime = _when()
    fence: int = 0  # the fencing token: grows by one at every change of holder, never reused


class EventRow(SQLModel, table=True):
    """An append-only log the TUI and live views poll with `events_since`."""

    __tablename__ = "event"
    # AUTOINCREMENT: an id is never reused, so `events_since(last_seen)` never misses one.
    __table_args__ = (sa.Index("ix_event_task", "task_id", "id"), {"sqlite_autoincrement": True})

    id: int | None = Field(default=None, primary_key=True)
    task_id: str | None = None  # no foreign key: a log line must never fail the work it describes
    kind: str
    payload: dict[str, Any] = _json()
    created_at: datetime = _when()


class FarmHostRow(SQLModel, table=True):
    """A host running `starebrain daemon` next to its phones; its heartbeat says it is alive."""

    __tablename__ = "farm_host"

    name: str = Field(primary_key=True)
    pid: int
    started_at: datetime = _when()
    heartbeat_at: datetime = _when()
    state: str  # UP, or STOPPED (a clean stop); a stale heartbeat of an UP host means it died


class FarmDeviceRow(SQLModel, table=True):
    """A phone as its host's daemon last saw it; `present` is false once it left or its host died."""

    __tablename__ = "farm_device"

    serial: str = Field(primary_key=True)
    host: str
    present: bool = False
    labels: dict[str, str] = _json()
    seen_at: datetime = _when()


class TaskQueueRow(SQLModel, table=True):
    """A task waiting for a daemon: for one phone (`serial`) or any phone whose labels match."""

    __tablename__ = "task_queue"
    __table_args__ = (sa.Index("ix_task_queue_state", "state", "enqueued_at"),)

    task_id: str = Field(primary_key=True, foreign_key="task.id")
    serial: str | None = None  # set at submit (bound) or at claim (a pool task): never changes after
    labels: dict[str, str] = _json()
    state: str  # QUEUED, CLAIMED, DONE
    enqueued_at: datetime = _when()
    claimed_at: datetime | None = _when(nullable=True)
    claimed_by: str | None = None  # the host whose daemon claimed it


class DeviceTagRow(SQLModel, table=True):
    """A tag a person put on one phone (`starebrain devices label`); the phone need not be attached."""

    __tablename__ = "device_tag"

    serial: str = Field(primary_key=True)
    key: str = Field(primary_key=True)
    value: str
    updated_at: datetime = _when()


METADATA = SQLModel.metadata
