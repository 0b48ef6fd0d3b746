"""One phone's worker: resumes its interrupted task, else claims the next queued one, and runs it.

A worker only ever drives its own phone, and takes the phone's lease before it reads the task
(fenced writes, the send gate): two daemons seeing one phone never both drive it, and a daemon
that was suspended past its lease performs no action once it wakes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from starebrain.agent.do_task import TaskPlanner
from starebrain.daemon.log import say
from starebrain.daemon.stopping import StoppableStore, StopRequested
from starebrain.errors import (
    ConfigInvalid,
    DeviceBusy,
    DeviceError,
    LeaseLost,
    LlmError,
    StaleWrite,
    StareBrainError,
    StoreError,
)
from starebrain.flows.runtime import driver_for
from starebrain.models import AgentTask, TaskStatus
from starebrain.store.farm import FarmStore

RETRY_S = 1.0  # a phone another process holds, or a failed attempt, is looked at again this soon

# (serial, task, lease keeper, store view) -> a Session with an executor
SessionOpener = Callable[[str, AgentTask, Any, Any], Any]


@dataclass
class WorkerContext:
    """What every worker of one daemon shares."""

    host: str
    store: Any
    farm: FarmStore
    settings: Any
    opener: SessionOpener
    stopping: threading.Event
    poll_s: float
    hold_lease: Callable[[str], Any]
    answer_hint: Callable[[AgentTask], str]  # the commands that answer a task's question


class PhoneWorker:
    """A thread driving one phone while it is attached and the daemon runs."""

    def __init__(self, ctx: WorkerContext, serial: str, labels: dict[str, str]) -> None:
        self.ctx = ctx
        self.serial = serial
        self.labels = labels
        self.attached = threading.Event()
        self.attached.set()
        self._wake = threading.Event()
        self._announced: set[tuple[str, int]] = set()
        self._busy_logged = False
        self._retry_soon = False  # the last look was blocked (busy phone, error), not idle
        self.store_view = StoppableStore.of(ctx.store, ctx.stopping)
        self.thread = threading.Thread(target=self._loop, name=f"phone-{serial}", daemon=True)

    def start(self) -> PhoneWorker:
        self.thread.start()
        return self

    def detach(self) -> None:
        """The phone left: stop after the current step (its device calls fail anyway)."""
        self.attached.clear()
        self._wake.set()

    def wake(self) -> None:
        self._wake.set()

    def _say(self, text: str) -> None:
        say(self.ctx.host, text, self.serial)

    def _loop(self) -> None:
        while not self.ctx.stopping.is_set() and self.attached.is_set():
            self._retry_soon = False
            try:
                worked = self._once()
            except StopRequested:
                return
            except StoreError as exc:  # the database is restarting or busy: nothing lost, try again
                self._say(f"database: {exc} (will try again)")
                worked, self._retry_soon = False, True
            except StareBrainError as exc:
                self._say(f"{type(exc).__name__}: {exc}")
                worked, self._retry_soon = False, True
            if not worked:
                self._wake.wait(min(self.ctx.poll_s, RETRY_S) if self._retry_soon else self.ctx.poll_s)
                self._wake.clear()

    def _once(self) -> bool:
        """Do one piece of work; False when there was none (the worker then waits a little)."""
        task = self.ctx.store.latest_unresolved(self.serial)
        if task is not None:
            if self._resumable(task):
                return self._drive(task.id, f"resuming task {task.id} at step {task.cursor + 1}")
            if task.status == TaskStatus.AWAITING_CONFIRMATION:
                self._announce(task)
                return False  # the phone is in the middle of that task: nothing else runs on it
        for task_id in self.ctx.farm.claimed_unfinished(self.serial):
            claimed = self.ctx.store.load_task(task_id)
            if claimed.status.resolved:
                self.ctx.farm.mark_done(task_id)
            elif claimed.status == TaskStatus.PENDING:
                return self._drive(task_id, f"starting claimed task {task_id}")
        claim = self.ctx.farm.claim(self.ctx.host, self.serial, self.labels)
        if claim is None:
            return False
        self._say(f"claimed task {claim.task_id} (queued {claim.waited_s:.2f}s)")
        return self._drive(claim.task_id, f"starting task {claim.task_id}")

    def _resumable(self, task: AgentTask) -> bool:
        """Interrupted (a crash, a lost phone), paused by a daemon stop, or holding a decided answer."""
        if task.status == TaskStatus.IN_PROGRESS:
            return True
        if task.status == TaskStatus.PAUSED:  # Ctrl-C in a foreground command stays for `resume`
            return self.ctx.farm.is_queued_task(task.id)
        return (task.status == TaskStatus.AWAITING_CONFIRMATION
                and self.ctx.store.pending_confirmation(task.id) is None)

    def _announce(self, task: AgentTask) -> None:
        if (task.id, task.cursor) in self._announced:
            return
        self._announced.add((task.id, task.cursor))
        self._say(f"task {task.id} waits for you: step {task.cursor + 1} ({task.status_reason}); "
                  f"{self.ctx.answer_hint(task)}")

    def _drive(self, task_id: str, what: str) -> bool:
        """Lease first, then the task as it is now, then run it until it stops."""
        try:
            keeper = self.ctx.hold_lease(self.serial)
        except DeviceBusy as exc:
            if not self._busy_logged:
                self._say(f"{exc}; waiting")
                self._busy_logged = True
            self._retry_soon = True
            return False
        self._busy_logged = False
        started = time.monotonic()
        try:
            task = self.ctx.store.load_task(task_id)
            if task.status.resolved:
                self.ctx.farm.mark_done(task_id)
                return True
            self._say(what)
            with self.ctx.opener(self.serial, task, keeper, self.store_view) as session:
                if TaskPlanner.unplanned(task):
                    task = self._plan(session, task)
                if not task.status.resolved:
                    driver = driver_for(session, self.store_view, task)  # a flow decided on the screen
                    task = driver.drive(partial(session.executor.run, task)) if driver else session.executor.run(task)
            self._finished(task, time.monotonic() - started)
            return True
        except StopRequested:
            self._say(f"stopping: task {task_id} paused (resumable)")
            raise
        except LeaseLost as exc:
            self._say(f"fenced: {exc}")
            self._retry_soon = True
            return False
        except StaleWrite as exc:
            self._say(f"{exc}")
            self._retry_soon = True
            return False
        except DeviceError as exc:
            self._say(f"{exc} (task {task_id} waits for the phone)")
            self._retry_soon = True
            return False
        finally:
            keeper.release()

    def _plan(self, session: Any, task: AgentTask) -> AgentTask:
        """A queued do-task is planned on its phone first, into itself; a failed plan leaves it FAILED.

        Planning touches nothing on the phone, so a daemon killed meanwhile leaves a task without
        steps that the next daemon plans again."""
        self._say(f"planning task {task.id} with the LLM")
        store: Any = session.executor.store  # the executor's view: every write fenced by the phone's lease
        planner = TaskPlanner(session.executor.planner, store, session.device, session.profiles, session.tracker)
        try:
            return planner.plan_queued(task)
        except (LlmError, ConfigInvalid):
            failed: AgentTask = store.load_task(task.id)  # FAILED with the reason and the calls made
            return failed

    def _finished(self, task: AgentTask, took_s: float) -> None:
        if task.status.resolved:
            self.ctx.farm.mark_done(task.id)
            reason = f": {task.status_reason}" if task.status == TaskStatus.FAILED else ""
            self._say(f"task {task.id} {task.status.value.lower()} in {took_s:.1f}s{reason}")
        elif task.status == TaskStatus.AWAITING_CONFIRMATION:
            self._announce(task)
        else:
            self._say(f"task {task.id} stopped {task.status.value.lower()}: {task.status_reason}")
