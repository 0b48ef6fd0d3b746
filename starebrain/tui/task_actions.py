"""Approve, deny, retry and cancel from the TUI, through the same engine builder as the CLI.

They run in a worker thread (approve and retry drive the phone); the decision is recorded as "tui".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from starebrain.config import Settings
    from starebrain.executor.task_executor import TaskExecutor
    from starebrain.models import AgentTask
    from starebrain.session import Session
    from starebrain.store import Store

DECIDED_BY = "tui"


class TaskActions(Protocol):
    """What the TUI can do to a task; each returns the task as it ends up."""

    def approve(self, task_id: str) -> Any: ...

    def deny(self, task_id: str) -> Any: ...

    def retry(self, task_id: str) -> Any: ...

    def cancel(self, task_id: str) -> Any: ...


class EngineTaskActions:
    """Each action opens its own store connection and, if it drives the phone, its own engine session."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def approve(self, task_id: str) -> Any:
        """Run the approved step on the phone, then continue the task."""
        with self._store() as store:
            task = store.load_task(task_id)
            with self._session(store, task) as session:
                return _through_flow(session, store, task, partial(_executor(session).approve, task, DECIDED_BY))

    def retry(self, task_id: str) -> Any:
        """Re-run the failed step under the cursor on the phone."""
        with self._store() as store:
            task = store.load_task(task_id)
            with self._session(store, task) as session:
                return _through_flow(session, store, task, partial(_executor(session).retry, task))

    def deny(self, task_id: str) -> Any:
        """Refuse the waiting step: nothing runs, the task fails."""
        with self._store() as store:
            return _offline(store).deny(store.load_task(task_id), DECIDED_BY)

    def cancel(self, task_id: str) -> Any:
        """Stop the task for good."""
        with self._store() as store:
            return _offline(store).cancel(store.load_task(task_id), DECIDED_BY)

    def _store(self) -> Store:
        from starebrain.store import Store

        return Store.open(settings=self.settings)

    def _session(self, store: Store, task: AgentTask) -> Session:
        """No live view: it would write over the TUI."""
        from starebrain.engine import build_engine, planner_for

        serial = task.device_serial
        return build_engine(self.settings, store, serial, planner=planner_for(self.settings, task, serial))


def _executor(session: Session) -> TaskExecutor:
    assert session.executor is not None  # build_engine returns sessions with an executor
    return session.executor


def _through_flow(session: Session, store: Store, task: AgentTask, call: Callable[[], Any]) -> Any:
    """A task whose flow depends on the screen continues through its driver (starebrain/flows/runtime.py)."""
    from starebrain.flows.runtime import driver_for

    driver = driver_for(session, store, task)
    return driver.drive(call) if driver is not None else call()


def _offline(store: Store) -> TaskExecutor:
    from starebrain.engine import build_offline_executor

    return build_offline_executor(store)
