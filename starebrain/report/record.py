"""Everything recorded about one task, read from the store once, for reports and the TUI."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starebrain.models import AgentStep, AgentTask, Attempt, Confirmation, LlmCall, StepStatus
from starebrain.store.events import StoredEvent


@dataclass(frozen=True)
class TaskRecord:
    """A task with its attempts, confirmations, LLM calls and events."""

    task: AgentTask
    attempts: list[Attempt] = field(default_factory=list)
    confirmations: list[Confirmation] = field(default_factory=list)
    llm_calls: list[LlmCall] = field(default_factory=list)
    events: list[StoredEvent] = field(default_factory=list)

    def attempts_of(self, step: AgentStep) -> list[Attempt]:
        """The attempts of one step, in the order they started."""
        return [a for a in self.attempts if a.step_id == step.id]

    def confirmations_of(self, step: AgentStep) -> list[Confirmation]:
        """The questions put to the person about one step."""
        return [c for c in self.confirmations if c.step_id == step.id]

    def superseded_attempts(self) -> list[Attempt]:
        """Attempts of steps a replan removed (their steps are no longer in the task)."""
        live = {s.id for s in self.task.steps}
        return [a for a in self.attempts if a.step_id not in live]

    def events_of(self, kind: str) -> list[StoredEvent]:
        """Recorded events of one kind (e.g. "Replanned"), oldest first."""
        return [e for e in self.events if e.kind == kind]

    @property
    def steps_done(self) -> int:
        return sum(1 for s in self.task.steps if s.status in (StepStatus.COMPLETED, StepStatus.SKIPPED))

    @property
    def tokens(self) -> int:
        return self.task.prompt_tokens + self.task.completion_tokens

    @property
    def retried_steps(self) -> int:
        """Steps that needed more than one attempt."""
        return sum(1 for s in self.task.steps if len(self.attempts_of(s)) > 1)

    def failed_step(self) -> AgentStep | None:
        """The step the task failed on, if it failed on one."""
        return next((s for s in self.task.steps if s.status is StepStatus.FAILED), None)


def load_record(store: Any, task_id: str) -> TaskRecord:
    """Read one task (id or unique prefix) and its whole history from the store."""
    task = store.load_task(task_id)
    return TaskRecord(
        task=task,
        attempts=store.attempts(task.id),
        confirmations=store.confirmations(task.id),
        llm_calls=store.llm_calls(task.id),
        events=_all_events(store, task.id),
    )


def _all_events(store: Any, task_id: str) -> list[StoredEvent]:
    events: list[StoredEvent] = []
    last = 0
    while True:  # bounded by the table: ids only grow, each page moves `last` forward
        page = store.events_since(last, task_id=task_id, limit=1000)
        events.extend(page)
        if len(page) < 1000:
            return events
        last = page[-1].id
