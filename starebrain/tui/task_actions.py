"""Approve, deny, retry and cancel from the TUI, through the same engine wiring as the CLI.

They run in a worker thread (approve and retry drive the phone); the decision is recorded as "tui".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

DECIDED_BY = "tui"


class TaskActions(Protocol):
    """What the TUI can do to a task; each returns the task as it ends up."""

    def approve(self, task_id: str) -> Any: ...

    def deny(self, task_id: str) -> Any: ...

    def retry(self, task_id: str) -> Any: ...

    def cancel(self, task_id: str) -> Any: ...


class CliTaskActions:
    """The CLI's EngineFactory per action: its own store connection, lease and device session."""

    def approve(self, task_id: str) -> Any:
        """Run the approved step on the phone, then continue the task."""
        with _engine() as engine:
            task = engine.load(task_id)
            with engine.session(task.device_serial) as session:
                return _through_flow(session, engine, task, partial(session.executor.approve, task, DECIDED_BY))

    def retry(self, task_id: str) -> Any:
        """Re-run the failed step under the cursor on the phone."""
        with _engine() as engine:
            task = engine.load(task_id)
            with engine.session(task.device_serial) as session:
                return _through_flow(session, engine, task, partial(session.executor.retry, task))

    def deny(self, task_id: str) -> Any:
        """Refuse the waiting step: nothing runs, the task fails."""
        with _engine() as engine:
            return engine.offline_executor().deny(engine.load(task_id), DECIDED_BY)

    def cancel(self, task_id: str) -> Any:
        """Stop the task for good."""
        with _engine() as engine:
            return engine.offline_executor().cancel(engine.load(task_id), DECIDED_BY)


def _through_flow(session: Any, engine: Any, task: Any, call: Callable[[], Any]) -> Any:
    """A task whose flow depends on the screen continues through its driver (starebrain/flows/runtime.py)."""
    from starebrain.flows.runtime import driver_for

    driver = driver_for(session, engine.store, task)
    return driver.drive(call) if driver is not None else call()


def _engine() -> Any:
    from cli.wiring import EngineFactory

    return EngineFactory(json_out=True)  # no live view: it would write over the TUI
