"""Run flow files as tasks, one worker thread per phone; each worker runs its flows one after another.

Flows are handed out from one queue, so a fast phone takes more of them. Every run of a flow is
its own task through the normal engine (`starebrain.engine.build_engine` → TaskExecutor), recorded like any other.
Nobody is at the keyboard: a step that needs confirmation is refused (the flow fails, saying so)
unless the person passed --approve-irreversible, which is their decision for this run.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from starebrain.errors import BadInput, StareBrainError
from starebrain.executor.secrets import SecretStore
from starebrain.executor.task_executor import INTERRUPTED_REASON
from starebrain.flows.driver import FlowDriver
from starebrain.flows.runtime import new_task, save_final_screen, source_of
from starebrain.models import AgentTask, TaskStatus, utcnow
from starebrain.regression.discovery import FlowSpec
from starebrain.regression.results import FlowResult, FlowRun, SuiteResult
from starebrain.regression.summary import summarize_run

log = logging.getLogger(__name__)

APPROVED_BY = "cli:--approve-irreversible"
REFUSED_BY = "starebrain test: unattended (no --approve-irreversible)"


SIM_BRAND = "starebrain"  # ro.product.brand of the simulated phone


@dataclass(frozen=True)
class SuiteOptions:
    approve_irreversible: bool = False
    retries: int = 0  # extra runs of a failed flow, each a new task; a pass on a retry is "flaky"
    resume: bool = False  # continue a flow's unfinished task (left by a killed run) instead of starting anew
    sim_secrets: dict[str, str] | None = None  # defaults used only when the phone is the simulated one
    env: dict[str, str] | None = None  # the -e values the flows were loaded with (recorded with each task)


def flow_source(spec: FlowSpec, env: dict[str, str] | None = None) -> str:
    """The task's `source`: which flow file (and -e values) it runs, so an interrupted suite finds it again."""
    return source_of(spec.path, env)


class _SessionSlot:
    """A worker's session on its phone, opened on first use and reopened after a device error."""

    def __init__(self, opener: Callable[[str], Any], serial: str) -> None:
        self.opener, self.serial, self.session = opener, serial, None

    def get(self) -> Any:
        if self.session is None:
            self.session = self.opener(self.serial)
        return self.session

    def drop(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            try:
                session.close()
            except Exception:  # a phone that went away may fail to close; the next flow reconnects
                log.warning("closing the session on %s failed", self.serial, exc_info=True)


class SuiteRunner:
    """Runs a list of flows over a list of phones and collects FlowResults."""

    def __init__(self, open_session: Callable[[str], Any], store: Any, options: SuiteOptions | None = None,
                 on_result: Callable[[FlowResult], None] | None = None) -> None:
        self.open_session = open_session
        self.store = store
        self.options = options or SuiteOptions()
        self.on_result = on_result
        self._lock = threading.Lock()
        self._resumable: dict[str, AgentTask] = {}

    def run(self, specs: Sequence[FlowSpec], serials: Sequence[str]) -> SuiteResult:
        """Run every flow; one thread per serial. Returns results in the order the flows were given."""
        started, t0 = utcnow(), time.monotonic()
        unfinished = self._unfinished(specs) if self.options.resume else {}
        queues: dict[str, queue.Queue[tuple[int, FlowSpec]]] = {s: queue.Queue() for s in serials}
        todo: queue.Queue[tuple[int, FlowSpec]] = queue.Queue()
        for i, spec in enumerate(specs):
            left = unfinished.get(flow_source(spec, self.options.env))
            # An unfinished task goes back to its own phone (its steps ran there).
            own = left is not None and not left.status.resolved and left.device_serial in queues
            (queues[left.device_serial] if own else todo).put((i, spec))  # type: ignore[union-attr]
        self._resumable = unfinished
        results: dict[int, FlowResult] = {}
        workers = [threading.Thread(target=self._work, args=(serial, queues[serial], todo, results),
                                    name=f"suite-{serial}", daemon=True) for serial in serials]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        ordered = [results[i] for i in sorted(results)]
        return SuiteResult(ordered, started, time.monotonic() - t0, list(serials))

    def _unfinished(self, specs: Sequence[FlowSpec]) -> dict[str, AgentTask]:
        """Each flow file's newest task, if it is unfinished (to continue) or completed (nothing to redo)."""
        wanted = {flow_source(s, self.options.env) for s in specs}
        found: dict[str, AgentTask] = {}
        for task in self.store.list_tasks(limit=5000):  # newest first
            if task.source in wanted and task.source not in found:
                found[task.source] = task
        return {k: t for k, t in found.items() if t.status != TaskStatus.FAILED and t.status != TaskStatus.CANCELLED}

    def _work(self, serial: str, mine: queue.Queue[tuple[int, FlowSpec]], todo: queue.Queue[tuple[int, FlowSpec]],
              results: dict[int, FlowResult]) -> None:
        slot = _SessionSlot(self.open_session, serial)
        try:
            while True:
                try:
                    i, spec = mine.get_nowait() if not mine.empty() else todo.get_nowait()
                except queue.Empty:
                    return
                result = self._guarded(spec, serial, slot)
                with self._lock:
                    results[i] = result
                    if self.on_result is not None:
                        self.on_result(result)
        finally:
            slot.drop()

    def _guarded(self, spec: FlowSpec, serial: str, slot: _SessionSlot) -> FlowResult:
        """run_flow, with an unexpected exception turned into this flow's error (the suite goes on)."""
        try:
            return self.run_flow(spec, serial, slot)
        except Exception as exc:  # a bug must not lose the other flows' results
            slot.drop()
            return FlowResult(path=spec.path, name=spec.name, device=serial,
                              runs=[FlowRun(number=1, status="error", reason=f"{type(exc).__name__}: {exc}")])

    def run_flow(self, spec: FlowSpec, serial: str, slot: _SessionSlot) -> FlowResult:
        """Run one flow, then again up to `retries` times while it fails."""
        result = FlowResult(path=spec.path, name=spec.name, device=serial, load_error=spec.error)
        if spec.flow is None:
            return result
        for number in range(1, self.options.retries + 2):
            run = self._run_once(spec, serial, slot, number)
            result.runs.append(run)
            if run.status == "passed":
                break
        return result

    def _run_once(self, spec: FlowSpec, serial: str, slot: _SessionSlot, number: int) -> FlowRun:
        flow = spec.flow
        assert flow is not None
        t0 = time.monotonic()
        with self._lock:
            left = self._resumable.pop(flow_source(spec, self.options.env), None) if number == 1 else None
        if left is not None and left.status == TaskStatus.COMPLETED:  # passed before the interruption
            return summarize_run(self.store, left, number, 0.0, "")
        if left is not None and left.device_serial != serial:
            return FlowRun(number=number, status="error", task_id=left.id,
                           reason=f"its unfinished task {left.id} ran on {left.device_serial}, which is not "
                                  f"selected (add --device {left.device_serial})")
        task = left or new_task(flow, serial, spec.path, self.options.env)
        try:
            session = slot.get()
            self._check_secrets(flow.secrets, session)  # before the first step touches the phone
            driver = FlowDriver(session.executor, self.store, flow.program) if flow.dynamic else None
            if left is not None:
                task = driver.resume(task) if driver else _resume_static(session.executor, task)
            else:
                task = driver.start(task) if driver else session.executor.start(task)
            task, refusal = self._settle_confirmations(session.executor, task, driver)
            save_final_screen(session, task)
        except BadInput as exc:  # a missing secret or a flow changed under a resumed task: nothing ran
            return FlowRun(number=number, status="error", reason=str(exc), duration_s=time.monotonic() - t0)
        except StareBrainError as exc:  # the phone or the store failed us: an error, not a test failure
            slot.drop()
            return self._errored(task, number, exc, time.monotonic() - t0)
        return summarize_run(self.store, task, number, time.monotonic() - t0, refusal)

    def _check_secrets(self, names: Sequence[str], session: Any) -> None:
        """Every secret the flow types must be set; the simulated phone gets its documented demo values."""
        sim = bool(names) and session.device is not None and session.device.brand() == SIM_BRAND
        for name in names:
            default = (self.options.sim_secrets or {}).get(name)
            if sim and default is not None:
                os.environ.setdefault(f"STAREBRAIN_SECRET_{name.upper().replace('-', '_').replace('.', '_')}",
                                      default)
            SecretStore().resolve(name)

    def _settle_confirmations(self, executor: Any, task: AgentTask, driver: FlowDriver | None) -> tuple[AgentTask, str]:
        """Approve (with --approve-irreversible) or refuse every question; returns the refusal reason.

        A step interrupted mid-action is never approved unattended: it may already have happened.
        """
        while task.status == TaskStatus.AWAITING_CONFIRMATION:
            step = task.current_step
            assert step is not None
            interrupted = task.status_reason == INTERRUPTED_REASON
            if not self.options.approve_irreversible or interrupted:
                why = "it was interrupted mid-action and may already have happened; decide with " \
                      f"`starebrain resume {task.id}`" if interrupted else \
                      "unattended run, so it was not run (pass --approve-irreversible to approve such steps)"
                reason = (f"step {step.index + 1} ({step.instruction}) needs a person's confirmation: "
                          f"{task.status_reason}; {why}")
                if interrupted:
                    return task, reason  # left waiting for the person, not denied
                return executor.deny(task, REFUSED_BY), reason
            approve = partial(executor.approve, task, APPROVED_BY)
            task = driver.drive(approve) if driver else approve()
        return task, ""

    def _errored(self, task: AgentTask, number: int, exc: StareBrainError, took: float) -> FlowRun:
        try:
            stored = self.store.load_task(task.id)
        except StareBrainError:
            return FlowRun(number=number, status="error", reason=f"{type(exc).__name__}: {exc}", duration_s=took)
        run = summarize_run(self.store, stored, number, took, "")
        return FlowRun(number=number, status="error", reason=f"{type(exc).__name__}: {exc}", task_id=stored.id,
                       task_status=stored.status.value, failed_step=run.failed_step, steps=run.steps,
                       duration_s=took)


def _resume_static(executor: Any, task: AgentTask) -> AgentTask:
    """Continue a plain step list from its cursor (a pending question stays pending)."""
    return task if task.status == TaskStatus.AWAITING_CONFIRMATION else executor.run(task)
