"""Turn a finished task and its recorded attempts into the FlowRun that reports show."""

from __future__ import annotations

from typing import Any

from starebrain.models import AgentStep, AgentTask, Attempt, StepStatus, TaskStatus
from starebrain.regression.results import FlowRun, StepLine


def step_line(step: AgentStep, attempts: list[Attempt]) -> StepLine:
    """One step with its attempts, obstructions and the last screenshot it saw."""
    shots = [a.screenshot_path for a in attempts if a.screenshot_path]
    obstructions = tuple(o for a in attempts for o in a.obstructions)
    message = step.result.message if step.result else ""
    if not message and attempts and attempts[-1].error:
        message = attempts[-1].error
    return StepLine(index=step.index, instruction=step.instruction, status=step.status.value,
                    attempts=len(attempts), obstructions=obstructions, screenshot=shots[-1] if shots else None,
                    message=message)


def summarize_run(store: Any, task: AgentTask, number: int, took: float, refusal: str) -> FlowRun:
    """The run's status, failure reason, failed step and every step line."""
    attempts = store.attempts(task.id)
    lines = tuple(step_line(s, [a for a in attempts if a.step_id == s.id]) for s in task.steps)
    passed = task.status == TaskStatus.COMPLETED
    failed = _failed_line(task, lines)
    reason = "" if passed else (refusal or task.status_reason or f"task ended {task.status.value}")
    return FlowRun(number=number, status="passed" if passed else "failed", reason=reason, task_id=task.id,
                   task_status=task.status.value, failed_step=failed, steps=lines, duration_s=took)


def _failed_line(task: AgentTask, lines: tuple[StepLine, ...]) -> StepLine | None:
    if task.status == TaskStatus.COMPLETED:
        return None
    failed = [line for line, s in zip(lines, task.steps, strict=True) if s.status == StepStatus.FAILED]
    if failed:
        return failed[0]
    return lines[task.cursor] if 0 <= task.cursor < len(lines) else None
