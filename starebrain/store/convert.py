"""Conversions between the pydantic models (the API) and the table rows (an implementation detail)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pydantic import TypeAdapter

from starebrain.models import (
    Action,
    AgentContext,
    AgentStep,
    AgentTask,
    AppSwitch,
    Attempt,
    AttemptOutcome,
    Confidence,
    Confirmation,
    Decision,
    LlmCall,
    LlmPurpose,
    Selector,
    StepResult,
    StepStatus,
    TaskStatus,
)
from starebrain.store.tables import (
    AgentContextRow,
    AttemptRow,
    ConfirmationRow,
    LlmCallRow,
    StepRow,
    TaskRow,
)

_ACTION: TypeAdapter[Action] = TypeAdapter(Action)


def task_values(task: AgentTask) -> dict[str, Any]:
    """The task row's column values (its steps are separate rows); no row object is built."""
    return {
        "id": task.id, "instruction": task.instruction, "device_serial": task.device_serial,
        "cursor": task.cursor, "status": task.status.value, "status_reason": task.status_reason,
        "replan_count": task.replan_count, "source": task.source, "created_at": task.created_at,
        "updated_at": task.updated_at, "prompt_tokens": task.prompt_tokens,
        "completion_tokens": task.completion_tokens, "version": task.version,
    }


def task_to_row(task: AgentTask) -> TaskRow:
    """The task row of a task (its steps are separate rows)."""
    return TaskRow(**task_values(task))


def step_values(task_id: str, step: AgentStep) -> dict[str, Any]:
    """The column values of one live (not superseded) step's row."""
    return {
        "task_id": task_id, "id": step.id, "position": step.index, "instruction": step.instruction,
        "action_kind": step.action.kind, "action": step.action.model_dump(mode="json"),
        "target_package": step.target_package,
        "expect": step.expect.model_dump(mode="json", exclude_none=True) if step.expect else None,
        "irreversible": step.irreversible, "status": step.status.value,
        "result": step.result.model_dump(mode="json") if step.result else None, "superseded_at": None,
    }


def step_to_row(task_id: str, step: AgentStep) -> StepRow:
    """The row of one live (not superseded) step."""
    return StepRow(**step_values(task_id, step))


def step_from_row(row: StepRow | Any) -> AgentStep:
    """An AgentStep back from its row; the action is validated through the discriminated union."""
    return AgentStep(
        id=row.id, index=row.position, instruction=row.instruction,
        action=_ACTION.validate_python(row.action), target_package=row.target_package,
        expect=Selector.model_validate(row.expect) if row.expect is not None else None,
        irreversible=row.irreversible, status=StepStatus(row.status),
        result=StepResult.model_validate(row.result) if row.result is not None else None,
    )


def task_from_rows(row: TaskRow | Any, steps: Iterable[StepRow | Any]) -> AgentTask:
    """An AgentTask from its row and its live step rows, in position order."""
    ordered = sorted(steps, key=lambda s: s.position)
    return AgentTask(
        id=row.id, instruction=row.instruction, device_serial=row.device_serial,
        steps=[step_from_row(s) for s in ordered], cursor=row.cursor, status=TaskStatus(row.status),
        status_reason=row.status_reason, replan_count=row.replan_count, source=row.source,
        created_at=row.created_at, updated_at=row.updated_at,
        prompt_tokens=row.prompt_tokens, completion_tokens=row.completion_tokens, version=row.version,
    )


def attempt_values(a: Attempt) -> dict[str, Any]:
    """The column values of one attempt's row."""
    return {
        "id": a.id, "task_id": a.task_id, "step_id": a.step_id, "number": a.number,
        "started_at": a.started_at, "ended_at": a.ended_at, "outcome": a.outcome.value, "error": a.error,
        "obstructions": list(a.obstructions), "screenshot_path": a.screenshot_path,
        "hierarchy_path": a.hierarchy_path, "hierarchy_hash": a.hierarchy_hash,
        "phases_ms": dict(a.phases_ms),
    }


def attempt_to_row(a: Attempt) -> AttemptRow:
    """The row of one attempt."""
    return AttemptRow(**attempt_values(a))


def attempt_from_row(row: AttemptRow | Any) -> Attempt:
    """An Attempt back from its row."""
    return Attempt(
        id=row.id, task_id=row.task_id, step_id=row.step_id, number=row.number,
        started_at=row.started_at, ended_at=row.ended_at, outcome=AttemptOutcome(row.outcome),
        error=row.error, obstructions=list(row.obstructions), screenshot_path=row.screenshot_path,
        hierarchy_path=row.hierarchy_path, hierarchy_hash=row.hierarchy_hash,
        phases_ms=dict(row.phases_ms),
    )


def confirmation_to_row(c: Confirmation) -> ConfirmationRow:
    """The row of one confirmation."""
    return ConfirmationRow(
        id=c.id, task_id=c.task_id, step_id=c.step_id, approved_hash=c.approved_hash, reason=c.reason,
        asked_at=c.asked_at, decided_at=c.decided_at,
        decision=c.decision.value if c.decision else None, decided_by=c.decided_by,
    )


def confirmation_from_row(row: ConfirmationRow | Any) -> Confirmation:
    """A Confirmation back from its row."""
    return Confirmation(
        id=row.id, task_id=row.task_id, step_id=row.step_id, approved_hash=row.approved_hash,
        reason=row.reason, asked_at=row.asked_at, decided_at=row.decided_at,
        decision=Decision(row.decision) if row.decision else None, decided_by=row.decided_by,
    )


def llm_call_to_row(c: LlmCall) -> LlmCallRow:
    """The row of one LLM call."""
    return LlmCallRow(
        id=c.id, task_id=c.task_id, purpose=c.purpose.value, model=c.model,
        prompt_tokens=c.prompt_tokens, completion_tokens=c.completion_tokens,
        latency_ms=c.latency_ms, outcome=c.outcome, created_at=c.created_at,
    )


def llm_call_from_row(row: LlmCallRow | Any) -> LlmCall:
    """An LlmCall back from its row."""
    return LlmCall(
        id=row.id, task_id=row.task_id, purpose=LlmPurpose(row.purpose), model=row.model,
        prompt_tokens=row.prompt_tokens, completion_tokens=row.completion_tokens,
        latency_ms=row.latency_ms, outcome=row.outcome, created_at=row.created_at,
    )


def context_to_row(ctx: AgentContext, saved_at: datetime) -> AgentContextRow:
    """The row of a context, already passed through `for_persistence()` by the caller."""
    return AgentContextRow(
        device_serial=ctx.device_serial, current_package=ctx.current_package,
        current_activity=ctx.current_activity,
        recent_switches=[s.model_dump(mode="json") for s in ctx.recent_switches],
        entities=dict(ctx.entities), captured_at=ctx.captured_at, confidence=ctx.confidence.value,
        saved_at=saved_at,
    )


def context_from_row(row: AgentContextRow | Any) -> AgentContext:
    """An AgentContext back from its row."""
    return AgentContext(
        device_serial=row.device_serial, current_package=row.current_package,
        current_activity=row.current_activity,
        recent_switches=[AppSwitch.model_validate(s) for s in row.recent_switches],
        entities=dict(row.entities), captured_at=row.captured_at, confidence=Confidence(row.confidence),
    )


def row_values(row: Any) -> dict[str, Any]:
    """Column values of a table row, for Core inserts and upserts."""
    return {c.name: getattr(row, c.name) for c in row.__table__.columns}
