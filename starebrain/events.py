"""Events the executor emits; the store, the live view, the TUI and the reporters subscribe."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    task_id: str

    @property
    def kind(self) -> str:
        return type(self).__name__

    def payload(self) -> dict[str, Any]:
        """JSON-able fields, for the event table and reporters."""
        return {k: v for k, v in asdict(self).items() if k != "task_id"}


@dataclass(frozen=True)
class TaskStarted(Event):
    instruction: str = ""
    steps: int = 0
    cursor: int = 0


@dataclass(frozen=True)
class StepStarted(Event):
    step_id: str = ""
    index: int = 0
    instruction: str = ""
    attempt: int = 1


@dataclass(frozen=True)
class StepFinished(Event):
    step_id: str = ""
    index: int = 0
    instruction: str = ""
    status: str = ""
    message: str = ""
    duration_ms: float = 0.0
    attempt: int = 1


@dataclass(frozen=True)
class ObstructionHandled(Event):
    step_id: str = ""
    kind: str = ""
    detail: str = ""
    action: str = ""


@dataclass(frozen=True)
class ConfirmationRequested(Event):
    step_id: str = ""
    index: int = 0
    instruction: str = ""
    reason: str = ""


@dataclass(frozen=True)
class ConfirmationDecided(Event):
    step_id: str = ""
    decision: str = ""
    decided_by: str = ""


@dataclass(frozen=True)
class StepRecovered(Event):
    """An IN_PROGRESS step found after a crash was settled (by `expect`, re-run, or put to the person)."""

    step_id: str = ""
    index: int = 0
    how: str = ""


@dataclass(frozen=True)
class Grounded(Event):
    step_id: str = ""
    selector: str = ""


@dataclass(frozen=True)
class Replanned(Event):
    cursor: int = 0
    removed: int = 0
    added: int = 0
    reason: str = ""


@dataclass(frozen=True)
class TaskFinished(Event):
    status: str = ""
    reason: str = ""
    cursor: int = 0
    steps: int = 0


@dataclass
class EventBus:
    """Fan-out of events to subscribers; a failing subscriber never breaks the executor."""

    subscribers: list[Callable[[Event], None]] = field(default_factory=list)

    def subscribe(self, fn: Callable[[Event], None]) -> None:
        self.subscribers.append(fn)

    def emit(self, event: Event) -> None:
        for fn in self.subscribers:
            try:
                fn(event)
            except Exception:  # a view or reporter must not stop a task
                log.exception("event subscriber failed on %s", event.kind)
