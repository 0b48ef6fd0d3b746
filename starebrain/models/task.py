"""Tasks, steps and what happened while running them (docs/architecture.md, Data model)."""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import UTC, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator

from starebrain.models.action import Action, no_point
from starebrain.models.selector import Selector


def new_id() -> str:
    return uuid.uuid4().hex[:12]


def utcnow() -> datetime:
    return datetime.now(UTC)


class TaskStatus(StrEnum):
    PENDING = "PENDING"
    IN_PROGRESS = "IN_PROGRESS"
    AWAITING_CONFIRMATION = "AWAITING_CONFIRMATION"
    PAUSED = "PAUSED"  # stopped by the person (Ctrl-C, SIGTERM): only `resume` continues it
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"

    @property
    def resolved(self) -> bool:
        return self in (TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.CANCELLED)


class StepStatus(StrEnum):
    PENDING = "PENDING"
    IN_PROGRESS = "IN_PROGRESS"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    SKIPPED = "SKIPPED"


class StepResult(BaseModel):
    """What the last run of a step came to."""

    ok: bool
    message: str = ""
    confirmed_by: str | None = None  # who approved it, if it ran under a confirmation
    settled_by: str | None = None  # e.g. "expect" when recovered after a crash without re-running


class AgentStep(BaseModel):
    model_config = ConfigDict(validate_assignment=True)

    id: str = Field(default_factory=new_id)
    index: int = 0
    instruction: str
    action: Action
    target_package: str | None = None
    expect: Selector | None = None
    irreversible: bool = False
    status: StepStatus = StepStatus.PENDING
    result: StepResult | None = None

    @field_validator("expect")
    @classmethod
    def _expect_element(cls, value: Selector | None) -> Selector | None:
        return no_point(value, "expect")  # a point "matches" any screen: it would prove nothing

    def approval_hash(self) -> str:
        """Hash of exactly what a person approves: action, selector, text and package."""
        payload = {
            "action": self.action.model_dump(mode="json"),
            "target_package": self.target_package,
            "instruction": self.instruction,
        }
        blob = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(blob).hexdigest()


class AgentTask(BaseModel):
    model_config = ConfigDict(validate_assignment=True)

    id: str = Field(default_factory=new_id)
    instruction: str
    device_serial: str
    steps: list[AgentStep] = Field(default_factory=list)
    cursor: int = 0
    status: TaskStatus = TaskStatus.PENDING
    status_reason: str = ""  # why it waits, failed or was cancelled, in human words
    replan_count: int = 0
    source: str = "flow"  # "flow" or "do"
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    version: int = 0  # bumped by every stored write; a write from an older copy is refused

    @property
    def current_step(self) -> AgentStep | None:
        return self.steps[self.cursor] if 0 <= self.cursor < len(self.steps) else None

    def with_revised_steps(self, revised: list[AgentStep]) -> AgentTask:
        """Keep steps before the cursor exactly; replace the rest."""
        kept = self.steps[: self.cursor]
        merged = kept + [s.model_copy(update={"index": self.cursor + i}) for i, s in enumerate(revised)]
        return self.model_copy(update={"steps": merged, "status": TaskStatus.IN_PROGRESS})


class AttemptOutcome(StrEnum):
    RUNNING = "RUNNING"
    SUCCEEDED = "SUCCEEDED"
    FAILED = "FAILED"
    INTERRUPTED = "INTERRUPTED"  # found IN_PROGRESS after a crash


class Attempt(BaseModel):
    """One execution of one step."""

    id: str = Field(default_factory=new_id)
    task_id: str
    step_id: str
    number: int = 1
    started_at: datetime = Field(default_factory=utcnow)
    ended_at: datetime | None = None
    outcome: AttemptOutcome = AttemptOutcome.RUNNING
    error: str = ""
    obstructions: list[str] = Field(default_factory=list)
    screenshot_path: str | None = None
    hierarchy_path: str | None = None
    hierarchy_hash: str | None = None
    phases_ms: dict[str, float] = Field(default_factory=dict)  # observe, decide, act, verify


class Decision(StrEnum):
    APPROVED = "APPROVED"  # run exactly this step (again)
    DENIED = "DENIED"  # do not run it; the task fails
    SKIPPED = "SKIPPED"  # do not run it, carry on (e.g. "it already happened")


class Confirmation(BaseModel):
    """A question put to the person, bound to the hash of exactly one step."""

    id: str = Field(default_factory=new_id)
    task_id: str
    step_id: str
    approved_hash: str
    reason: str
    asked_at: datetime = Field(default_factory=utcnow)
    decided_at: datetime | None = None
    decision: Decision | None = None
    decided_by: str | None = None  # "cli", "tui", "approve" — always the person


class LlmPurpose(StrEnum):
    PLAN = "plan"
    GROUND = "ground"
    REPLAN = "replan"
    LOCATE = "locate"  # a point on a screenshot, for a screen without a usable hierarchy


class LlmCall(BaseModel):
    id: str = Field(default_factory=new_id)
    task_id: str | None = None
    purpose: LlmPurpose
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    outcome: str = "ok"  # ok, repaired, retried, error: ...
    created_at: datetime = Field(default_factory=utcnow)
