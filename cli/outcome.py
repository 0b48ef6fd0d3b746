"""How a task's end is shown and which exit code it gives (README "Exit codes")."""

from __future__ import annotations

import json
import sys
from typing import Any

from starebrain.errors import (
    EXIT_AWAITING_CONFIRMATION,
    EXIT_CANCELLED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TASK_FAILED,
)

EXIT_BY_STATUS = {
    "COMPLETED": EXIT_OK,
    "FAILED": EXIT_TASK_FAILED,
    "CANCELLED": EXIT_CANCELLED,
    "AWAITING_CONFIRMATION": EXIT_AWAITING_CONFIRMATION,
    "PAUSED": EXIT_INTERRUPTED,
}


def answer_hint(task: Any) -> str:
    """The commands that answer a task's question; an interrupted step also offers skip."""
    from starebrain.executor.task_executor import INTERRUPTED_REASON

    if task.status_reason == INTERRUPTED_REASON:
        return (f"starebrain approve {task.id} (redo it)   |   starebrain skip {task.id} (it already "
                f"happened)   |   starebrain deny {task.id}")
    return f"starebrain approve {task.id}   |   starebrain deny {task.id}"


def exit_for(task: Any) -> int:
    """The documented exit code for a task's status (a paused IN_PROGRESS task is 5, like offline)."""
    return EXIT_BY_STATUS.get(task.status.value, 5)


def print_outcome(task: Any, json_out: bool) -> None:
    """`--json`: the task on stdout; otherwise a hint of what to do next on stderr."""
    if json_out:
        print(json.dumps(task.model_dump(mode="json"), indent=2))
        return
    status = task.status.value
    if status == "AWAITING_CONFIRMATION":
        step = task.current_step
        print(f"awaiting confirmation of step {step.index + 1}: {step.instruction} ({task.status_reason})\n"
              f"  {answer_hint(task)}", file=sys.stderr)
    elif status == "FAILED":
        print(f"task {task.id} failed: {task.status_reason}\n  starebrain retry {task.id}   |   "
              f"starebrain retry {task.id} --from N   |   starebrain skip {task.id} (it is done already)",
              file=sys.stderr)
    elif status == "COMPLETED":
        print(f"task {task.id} completed ({len(task.steps)} steps)", file=sys.stderr)
    elif status == "CANCELLED":
        print(f"task {task.id} cancelled: {task.status_reason}", file=sys.stderr)
    elif status in ("IN_PROGRESS", "PAUSED"):
        print(f"task {task.id} paused: {task.status_reason}\n  starebrain resume {task.id}", file=sys.stderr)
