"""A graceful stop: the running task pauses at its next step boundary, never inside a device call.

The executor already turns KeyboardInterrupt into a PAUSED task and asks the store, at every step
boundary, whether the task was cancelled; the daemon's store view answers that question by raising
StopRequested (a KeyboardInterrupt) once the daemon is stopping, so the current step (its device
calls and their commits) finishes and the task is left PAUSED, for the next daemon to resume.
"""

from __future__ import annotations

import copy
import threading
from typing import Any

from starebrain.store import Store


class StopRequested(KeyboardInterrupt):
    """The daemon is stopping (SIGTERM): pause the task at this step boundary."""


class StoppableStore(Store):
    """The daemon's view of the store: `cancel_requested` raises StopRequested once `stopping` is set."""

    stopping: threading.Event

    @classmethod
    def of(cls, store: Store, stopping: threading.Event) -> StoppableStore:
        view: Any = copy.copy(store)
        view.__class__ = cls
        view.stopping = stopping
        return view  # type: ignore[no-any-return]

    def cancel_requested(self, task_id: str) -> str | None:
        if self.stopping.is_set():
            raise StopRequested(f"daemon stopping: task {task_id} pauses here")
        return super().cancel_requested(task_id)
