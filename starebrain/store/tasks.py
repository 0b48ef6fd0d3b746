"""Reading and writing a task with its steps, inside a transaction the caller holds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from starebrain.errors import TaskNotFound, TaskStateError
from starebrain.models import AgentTask, TaskStatus
from starebrain.store.convert import row_values, step_to_row, task_from_rows, task_to_row
from starebrain.store.tables import StepRow, TaskRow

TASK = TaskRow.__table__  # type: ignore[attr-defined]
STEP = StepRow.__table__  # type: ignore[attr-defined]
UNRESOLVED = (TaskStatus.IN_PROGRESS.value, TaskStatus.AWAITING_CONFIRMATION.value)


def upsert(conn: Connection, table: sa.Table, values: dict[str, Any], keys: Sequence[str],
           set_: dict[str, Any] | None = None) -> None:
    """INSERT, or UPDATE every non-key column (or just `set_`) when the key exists."""
    stmt = sqlite_insert(table).values(values)
    update = set_ if set_ is not None else {c: stmt.excluded[c] for c in values if c not in keys}
    conn.execute(stmt.on_conflict_do_update(index_elements=list(keys), set_=update))


def task_exists(conn: Connection, task_id: str) -> bool:
    """Whether a task row with exactly this id exists."""
    return conn.execute(sa.select(TASK.c.id).where(TASK.c.id == task_id)).first() is not None


def check_shape(task: AgentTask) -> None:
    """Refuse a task whose cursor is off its steps or whose step ids repeat (steps are keyed by id)."""
    if not 0 <= task.cursor <= len(task.steps):
        raise TaskStateError(f"task {task.id} has cursor {task.cursor} outside its {len(task.steps)} steps",
                             task_id=task.id)
    seen: set[str] = set()
    for step in task.steps:
        if step.id in seen:
            raise TaskStateError(f"task {task.id} has two steps with id {step.id}", task_id=task.id)
        seen.add(step.id)


def write_task(conn: Connection, task: AgentTask, now: datetime) -> None:
    """Upsert the task row and its steps; steps no longer in the task are marked superseded.

    Each `step.index` is set to the step's position in `task.steps` (on the caller's object too).
    """
    check_shape(task)
    values = row_values(task_to_row(task))
    stmt = sqlite_insert(TASK).values(values)
    update: dict[str, Any] = {
        c: stmt.excluded[c] for c in values if c not in ("id", "prompt_tokens", "completion_tokens")}
    # Totals only grow: add_llm_call adds to them, so a stale in-memory copy must not shrink them.
    for col in ("prompt_tokens", "completion_tokens"):
        update[col] = sa.func.max(TASK.c[col], stmt.excluded[col])
    conn.execute(stmt.on_conflict_do_update(index_elements=["id"], set_=update))
    for position, step in enumerate(task.steps):
        if step.index != position:  # the list order is the truth the cursor indexes; keep both equal
            step.index = position
        upsert(conn, STEP, row_values(step_to_row(task.id, step)), ("task_id", "id"))
    _supersede_missing(conn, task.id, [s.id for s in task.steps], now)


def _supersede_missing(conn: Connection, task_id: str, live_ids: list[str], now: datetime) -> None:
    # Replanned-away steps stay (their attempts and confirmations point at them), marked superseded.
    conn.execute(
        sa.update(STEP)
        .where(STEP.c.task_id == task_id, STEP.c.id.not_in(live_ids), STEP.c.superseded_at.is_(None))
        .values(superseded_at=now)
    )


def resolve_task_id(conn: Connection, task_id: str) -> str:
    """The full id for an exact id or a unique prefix; TaskNotFound otherwise."""
    if task_exists(conn, task_id):
        return task_id
    prefix = sa.func.substr(TASK.c.id, 1, len(task_id))
    found = [r[0] for r in conn.execute(sa.select(TASK.c.id).where(prefix == task_id).limit(6))]
    if len(found) == 1 and task_id:
        return found[0]
    if not found or not task_id:
        raise TaskNotFound(f"no task {task_id!r}", task_id=task_id)
    shown = ", ".join(found[:5])
    raise TaskNotFound(f"task id prefix {task_id!r} is ambiguous: {shown}", task_id=task_id)


def read_tasks(conn: Connection, task_rows: Iterable[Any]) -> list[AgentTask]:
    """Tasks for the given task rows (in that order), loading all their live steps in one query."""
    rows = [TaskRow(**r._mapping) for r in task_rows]
    if not rows:
        return []
    steps: dict[str, list[StepRow]] = {r.id: [] for r in rows}
    query = sa.select(STEP).where(STEP.c.task_id.in_(list(steps)), STEP.c.superseded_at.is_(None))
    for s in conn.execute(query):
        steps[s.task_id].append(StepRow(**s._mapping))
    return [task_from_rows(r, steps[r.id]) for r in rows]


def read_task(conn: Connection, task_id: str) -> AgentTask:
    """One task by id or unique prefix, with its live steps."""
    full = resolve_task_id(conn, task_id)
    return read_tasks(conn, conn.execute(sa.select(TASK).where(TASK.c.id == full)))[0]


def select_tasks(status: Iterable[str] | None, serial: str | None, limit: int,
                 newest_by: str = "created_at") -> sa.Select[Any]:
    """Task rows filtered by status and serial, newest (by `newest_by`) first."""
    query = sa.select(TASK)
    if status is not None:
        query = query.where(TASK.c.status.in_(list(status)))
    if serial is not None:
        query = query.where(TASK.c.device_serial == serial)
    return query.order_by(TASK.c[newest_by].desc(), TASK.c.created_at.desc(), TASK.c.id).limit(limit)


def add_tokens(conn: Connection, task_id: str, prompt: int, completion: int) -> None:
    """Add one LLM call's tokens to its task's totals."""
    conn.execute(
        sa.update(TASK).where(TASK.c.id == task_id).values(
            prompt_tokens=TASK.c.prompt_tokens + prompt,
            completion_tokens=TASK.c.completion_tokens + completion,
        )
    )
