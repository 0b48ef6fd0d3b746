"""Reading and writing a task with its steps, inside a transaction the caller holds."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from starebrain.errors import StaleWrite, TaskNotFound, TaskStateError
from starebrain.models import AgentTask, TaskStatus
from starebrain.store import prepared
from starebrain.store.convert import step_values, task_from_rows, task_values
from starebrain.store.tables import StepRow, TaskRow

TASK = TaskRow.__table__  # type: ignore[attr-defined]
STEP = StepRow.__table__  # type: ignore[attr-defined]
UNRESOLVED = (TaskStatus.IN_PROGRESS.value, TaskStatus.AWAITING_CONFIRMATION.value, TaskStatus.PAUSED.value)


def upsert(conn: Connection, table: sa.Table, values: dict[str, Any], keys: Sequence[str],
           set_: dict[str, Any] | None = None) -> None:
    """INSERT, or UPDATE every non-key column (or just `set_`) when the key exists."""
    stmt = (_pg_insert() if conn.dialect.name == "postgresql" else sqlite_insert)(table).values(values)
    update = set_ if set_ is not None else {c: stmt.excluded[c] for c in values if c not in keys}
    conn.execute(stmt.on_conflict_do_update(index_elements=list(keys), set_=update))


def _pg_insert() -> Callable[[sa.Table], Any]:
    """PostgreSQL's INSERT, imported on use: its engine has loaded the dialect, SQLite never needs it."""
    from sqlalchemy.dialects.postgresql import insert

    return insert


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


def write_task(conn: Connection, task: AgentTask, now: datetime) -> int:
    """Upsert the task row and its steps; steps no longer in the task are marked superseded.

    Compare-and-set: the stored `version` must equal `task.version` (StaleWrite otherwise: another
    process wrote the task since this copy was read); the row gets version + 1, which is returned
    for the caller to adopt once the transaction commits.
    Each `step.index` is set to the step's position in `task.steps` (on the caller's object too).
    Only step rows whose stored bytes differ are written: they are compared with the rows read in
    this same (write-locked) transaction, so the result equals rewriting every row.
    """
    check_shape(task)
    cur = prepared.cursor(conn)
    # FOR UPDATE on PostgreSQL: two writers of one task queue here, as BEGIN IMMEDIATE makes them on SQLite
    lock = " FOR UPDATE" if conn.dialect.name == "postgresql" else ""
    stored_version = cur.execute(f"SELECT version FROM task WHERE id = ?{lock}", (task.id,)).fetchone()
    if stored_version is not None and stored_version[0] != task.version:
        raise StaleWrite(f"task {task.id} was changed by another process (version {stored_version[0]}, "
                         f"this copy has {task.version}); nothing was overwritten", task_id=task.id)
    task_sql = prepared.table_sql(TASK, conn)
    # Totals only grow: add_llm_call adds to them, so a stale in-memory copy must not shrink them.
    upsert_task = task_sql.upsert(("id",), keep_max=("prompt_tokens", "completion_tokens"))
    version = task.version + 1
    cur.execute(upsert_task, task_sql.bind({**task_values(task), "version": version}, upsert_task))
    stored = _stored_steps(cur, task.id)
    step_sql = prepared.table_sql(STEP, conn)
    upsert_step = step_sql.upsert(("task_id", "id"))
    for position, step in enumerate(task.steps):
        if step.index != position:  # the list order is the truth the cursor indexes; keep both equal
            step.index = position
        row = step_sql.bind(step_values(task.id, step), upsert_step)
        if stored.get(step.id) != row:
            cur.execute(upsert_step, row)
    live = {s.id for s in task.steps}
    superseded = step_sql.columns.index("superseded_at")
    if any(row[superseded] is None and step_id not in live for step_id, row in stored.items()):
        _supersede_missing(conn, task.id, list(live), now)
    return version


def _stored_steps(cur: Any, task_id: str) -> dict[str, tuple[Any, ...]]:
    # The raw column values, in the same order and form `TableSql.bind` produces.
    columns = prepared.table_sql(STEP).columns
    rows = cur.execute(f"SELECT {', '.join(columns)} FROM step WHERE task_id = ?", (task_id,)).fetchall()
    key = columns.index("id")
    return {row[key]: tuple(row) for row in rows}


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
    found: list[str] = [r[0] for r in conn.execute(sa.select(TASK.c.id).where(prefix == task_id).limit(6))]
    if len(found) == 1 and task_id:
        return found[0]
    if not found or not task_id:
        raise TaskNotFound(f"no task {task_id!r}", task_id=task_id)
    shown = ", ".join(found[:5])
    raise TaskNotFound(f"task id prefix {task_id!r} is ambiguous: {shown}", task_id=task_id)


def read_tasks(conn: Connection, task_rows: Iterable[Any]) -> list[AgentTask]:
    """Tasks for the given task rows (in that order), loading all their live steps in one query."""
    rows = list(task_rows)  # result rows have the columns as attributes: no row objects built
    if not rows:
        return []
    steps: dict[str, list[Any]] = {r.id: [] for r in rows}
    query = sa.select(STEP).where(STEP.c.task_id.in_(list(steps)), STEP.c.superseded_at.is_(None))
    for s in conn.execute(query):
        steps[s.task_id].append(s)
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
