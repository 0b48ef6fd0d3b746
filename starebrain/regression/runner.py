"""Run flow files as tasks, one worker thread per phone; each worker runs its flows one after another.

Flows are handed out from one queue, so a fast phone takes more of them. Every run of a flow is
its own task through the normal engine (`starebrain.engine.build_engine` → TaskExecutor), recorded like any other.
Nobody is at the keyboard: a step that needs confirmation is refused (the flow fails, saying so)
unless the person passed --approve-irreversible, which is their decision for this run.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from starebrain.errors import StareBrainError
from starebrain.models import AgentTask, TaskStatus, utcnow
from starebrain.regression.discovery import FlowSpec
from starebrain.regression.results import FlowResult, FlowRun, SuiteResult
from starebrain.regression.summary import summarize_run

log = logging.getLogger(__name__)

APPROVED_BY = "cli:--approve-irreversible"
REFUSED_BY = "starebrain test: unattended (no --approve-irreversible)"


@dataclass(frozen=True)
class SuiteOptions:
    approve_irreversible: bool = False
    retries: int = 0  # extra runs of a failed flow, each a new task; a pass on a retry is "flaky"


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

    def run(self, specs: Sequence[FlowSpec], serials: Sequence[str]) -> SuiteResult:
        """Run every flow; one thread per serial. Returns results in the order the flows were given."""
        started, t0 = utcnow(), time.monotonic()
        todo: queue.Queue[tuple[int, FlowSpec]] = queue.Queue()
        for i, spec in enumerate(specs):
            todo.put((i, spec))
        results: dict[int, FlowResult] = {}
        workers = [threading.Thread(target=self._work, args=(serial, todo, results), name=f"suite-{serial}",
                                    daemon=True) for serial in serials]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        ordered = [results[i] for i in sorted(results)]
        return SuiteResult(ordered, started, time.monotonic() - t0, list(serials))

    def _work(self, serial: str, todo: queue.Queue[tuple[int, FlowSpec]], results: dict[int, FlowResult]) -> None:
        slot = _SessionSlot(self.open_session, serial)
        try:
            while True:
                try:
                    i, spec = todo.get_nowait()
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
        assert spec.flow is not None
        t0 = time.monotonic()
        task = AgentTask(instruction=spec.flow.instruction, device_serial=serial,
                         steps=[s.model_copy(deep=True) for s in spec.flow.steps], source="flow")
        try:
            session = slot.get()
            task = session.executor.start(task)
            task, refusal = self._settle_confirmations(session.executor, task)
        except StareBrainError as exc:  # the phone or the store failed us: an error, not a test failure
            slot.drop()
            return self._errored(task, number, exc, time.monotonic() - t0)
        return summarize_run(self.store, task, number, time.monotonic() - t0, refusal)

    def _settle_confirmations(self, executor: Any, task: AgentTask) -> tuple[AgentTask, str]:
        """Approve (with --approve-irreversible) or refuse every question; returns the refusal reason."""
        while task.status == TaskStatus.AWAITING_CONFIRMATION:
            step = task.current_step
            assert step is not None
            if not self.options.approve_irreversible:
                reason = (f"step {step.index + 1} ({step.instruction}) needs a person's confirmation: "
                          f"{task.status_reason}; unattended run, so it was not run "
                          f"(pass --approve-irreversible to approve such steps)")
                return executor.deny(task, REFUSED_BY), reason
            task = executor.approve(task, APPROVED_BY)
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
