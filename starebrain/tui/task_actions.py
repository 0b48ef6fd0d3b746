"""Approve, deny, retry and cancel from the TUI, through the same engine builder as the CLI.

They run in a worker thread (approve and retry drive the phone); the decision is recorded as "tui".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from starebrain.config import Settings
    from starebrain.executor.task_executor import TaskExecutor
    from starebrain.models import AgentTask
    from starebrain.session import Session
    from starebrain.store import Store
    from starebrain.store.lease_keeper import LeaseKeeper

DECIDED_BY = "tui"


class TaskActions(Protocol):
    """What the TUI can do to a task; each returns the task as it ends up."""

    def approve(self, task_id: str) -> Any: ...

    def deny(self, task_id: str) -> Any: ...

    def retry(self, task_id: str) -> Any: ...

    def cancel(self, task_id: str) -> Any: ...


class EngineTaskActions:
    """Each action opens its own store connection and, if it drives the phone, its own engine session.

    Like every CLI command: the phone's lease first, then the task as it is now, so a copy loaded
    before another process moved the task is never written back.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def approve(self, task_id: str) -> Any:
        """Run the approved step on the phone, then continue the task."""
        with self._store() as store, self._leased(store, task_id) as (keeper, task):
            with self._session(store, task, keeper) as session:
                return _through_flow(session, store, task, partial(_executor(session).approve, task, DECIDED_BY))

    def retry(self, task_id: str) -> Any:
        """Re-run the failed step under the cursor on the phone."""
        with self._store() as store, self._leased(store, task_id) as (keeper, task):
            with self._session(store, task, keeper) as session:
                return _through_flow(session, store, task, partial(_executor(session).retry, task))

    def deny(self, task_id: str) -> Any:
        """Refuse the waiting step: nothing runs, the task fails."""
        with self._store() as store, self._leased(store, task_id) as (keeper, task):
            return _offline(store.fenced(keeper.lease)).deny(task, DECIDED_BY)

    def cancel(self, task_id: str) -> Any:
        """Stop the task for good; while another process drives it, ask that process to stop at its next step."""
        from starebrain.errors import DeviceBusy

        with self._store() as store:
            try:
                with self._leased(store, task_id) as (keeper, task):
                    return _offline(store.fenced(keeper.lease)).cancel(task, DECIDED_BY)
            except DeviceBusy:
                store.request_cancel(task_id, DECIDED_BY)
                return store.load_task(task_id)

    def _store(self) -> Store:
        from starebrain.store import Store

        return Store.open(settings=self.settings)

    @contextmanager
    def _leased(self, store: Store, task_id: str) -> Iterator[tuple[LeaseKeeper, AgentTask]]:
        from starebrain.session import hold_lease

        keeper = hold_lease(self.settings, store, store.load_task(task_id).device_serial)
        try:
            yield keeper, store.load_task(task_id)
        finally:
            keeper.release()

    def _session(self, store: Store, task: AgentTask, keeper: LeaseKeeper) -> Session:
        """No live view: it would write over the TUI."""
        from starebrain.engine import build_engine, planner_for

        serial = task.device_serial
        return build_engine(self.settings, store, serial, planner=planner_for(self.settings, task, serial),
                            keeper=keeper)


def _executor(session: Session) -> TaskExecutor:
    assert session.executor is not None  # build_engine returns sessions with an executor
    return session.executor


def _through_flow(session: Session, store: Store, task: AgentTask, call: Callable[[], Any]) -> Any:
    """A task whose flow depends on the screen continues through its driver (starebrain/flows/runtime.py)."""
    from starebrain.flows.runtime import driver_for

    driver = driver_for(session, store, task)
    return driver.drive(call) if driver is not None else call()


def _offline(store: Any) -> TaskExecutor:
    from starebrain.engine import build_offline_executor

    return build_offline_executor(store)
