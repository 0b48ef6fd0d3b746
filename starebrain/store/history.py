"""Append-mostly history rows: attempts, confirmations, LLM calls (inside a caller's transaction)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from starebrain.errors import BadInput, TaskStateError
from starebrain.models import AgentTask, Attempt, AttemptOutcome, Confirmation, Decision, LlmCall, StepStatus
from starebrain.store import prepared
from starebrain.store.convert import (
    attempt_from_row,
    attempt_values,
    confirmation_from_row,
    confirmation_to_row,
    llm_call_from_row,
    llm_call_to_row,
    row_values,
)
from starebrain.store.tables import AttemptRow, ConfirmationRow, LlmCallRow

ATTEMPT = AttemptRow.__table__  # type: ignore[attr-defined]
CONFIRMATION = ConfirmationRow.__table__  # type: ignore[attr-defined]
LLM_CALL = LlmCallRow.__table__  # type: ignore[attr-defined]


def check_attempt_start(task: AgentTask, attempt: Attempt) -> None:
    """Write-ahead precondition: the attempt's step is in the task and already IN_PROGRESS."""
    if attempt.task_id != task.id:
        raise TaskStateError(f"attempt {attempt.id} belongs to task {attempt.task_id}, not {task.id}",
                             task_id=task.id, step_id=attempt.step_id)
    step = next((s for s in task.steps if s.id == attempt.step_id), None)
    if step is None:
        raise TaskStateError(f"task {task.id} has no step {attempt.step_id}",
                             task_id=task.id, step_id=attempt.step_id)
    if step.status is not StepStatus.IN_PROGRESS:
        raise TaskStateError(f"step {step.id} must be IN_PROGRESS before its attempt starts "
                             f"(it is {step.status.value})", task_id=task.id, step_id=step.id)


def interrupt_running(conn: Connection, task_id: str, except_id: str, now: datetime) -> None:
    """Attempts of this task still RUNNING had an unknown outcome: record them as INTERRUPTED."""
    ended = prepared.table_sql(ATTEMPT, conn).process("ended_at", now)
    prepared.cursor(conn).execute(
        "UPDATE attempt SET outcome = ?, ended_at = ? WHERE task_id = ? AND outcome = ? AND id != ?",
        (AttemptOutcome.INTERRUPTED.value, ended, task_id, AttemptOutcome.RUNNING.value, except_id))


def insert_attempt(conn: Connection, attempt: Attempt) -> None:
    """A new attempt row; an id already recorded is refused rather than overwritten."""
    cur = prepared.cursor(conn)
    if cur.execute("SELECT 1 FROM attempt WHERE id = ?", (attempt.id,)).fetchone():
        raise TaskStateError(f"attempt {attempt.id} was already started", task_id=attempt.task_id,
                             step_id=attempt.step_id)
    sql = prepared.table_sql(ATTEMPT, conn)
    cur.execute(sql.insert, sql.bind(attempt_values(attempt), sql.insert))


def save_attempt(conn: Connection, attempt: Attempt) -> None:
    """Insert or update an attempt (a finish without a recorded start is still kept)."""
    sql = prepared.table_sql(ATTEMPT, conn)
    upsert = sql.upsert(("id",))
    prepared.cursor(conn).execute(upsert, sql.bind(attempt_values(attempt), upsert))


def read_attempts(conn: Connection, task_id: str, step_id: str | None) -> list[Attempt]:
    """Attempts of a task (or one step of it), in the order they started."""
    query = sa.select(ATTEMPT).where(ATTEMPT.c.task_id == task_id)
    if step_id is not None:
        query = query.where(ATTEMPT.c.step_id == step_id)
    query = query.order_by(ATTEMPT.c.started_at, ATTEMPT.c.number, ATTEMPT.c.id)
    return [attempt_from_row(r) for r in conn.execute(query)]


def next_attempt_number(conn: Connection, task_id: str, step_id: str) -> int:
    """1 + the highest attempt number recorded for this step."""
    query = sa.select(sa.func.max(ATTEMPT.c.number)).where(
        ATTEMPT.c.task_id == task_id, ATTEMPT.c.step_id == step_id)
    return int(conn.execute(query).scalar() or 0) + 1


def insert_confirmation(conn: Connection, c: Confirmation) -> None:
    """A new confirmation row."""
    conn.execute(sa.insert(CONFIRMATION).values(row_values(confirmation_to_row(c))))


def read_confirmation(conn: Connection, confirmation_id: str) -> Confirmation:
    """One confirmation by id; BadInput if there is none."""
    row = conn.execute(sa.select(CONFIRMATION).where(CONFIRMATION.c.id == confirmation_id)).first()
    if row is None:
        raise BadInput(f"no confirmation {confirmation_id!r}")
    return confirmation_from_row(row)


def decide(conn: Connection, confirmation_id: str, decision: Decision, decided_by: str,
           now: datetime) -> Confirmation:
    """Record the person's decision once; the same decision again is a no-op, a different one refused."""
    current = read_confirmation(conn, confirmation_id)
    if current.decision is not None:
        if current.decision == decision:
            return current
        raise TaskStateError(f"confirmation {confirmation_id} was already decided: "
                             f"{current.decision.value} by {current.decided_by}",
                             task_id=current.task_id, step_id=current.step_id)
    conn.execute(sa.update(CONFIRMATION).where(CONFIRMATION.c.id == confirmation_id)
                 .values(decision=decision.value, decided_by=decided_by, decided_at=now))
    return current.model_copy(update={"decision": decision, "decided_by": decided_by, "decided_at": now})


def read_confirmations(conn: Connection, task_id: str, *, pending_only: bool = False) -> list[Confirmation]:
    """Confirmations of a task, oldest first."""
    query = sa.select(CONFIRMATION).where(CONFIRMATION.c.task_id == task_id)
    if pending_only:
        query = query.where(CONFIRMATION.c.decision.is_(None))
    query = query.order_by(CONFIRMATION.c.asked_at, CONFIRMATION.c.id)
    return [confirmation_from_row(r) for r in conn.execute(query)]


def insert_llm_call(conn: Connection, call: LlmCall) -> None:
    """A new LLM call row."""
    conn.execute(sa.insert(LLM_CALL).values(row_values(llm_call_to_row(call))))


def read_llm_calls(conn: Connection, task_id: str) -> list[LlmCall]:
    """LLM calls of a task, oldest first."""
    query = sa.select(LLM_CALL).where(LLM_CALL.c.task_id == task_id).order_by(LLM_CALL.c.created_at)
    return [llm_call_from_row(r) for r in conn.execute(query)]
