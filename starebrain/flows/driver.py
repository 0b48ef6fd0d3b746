"""Runs a flow whose steps depend on the screen, one concrete step at a time, through the TaskExecutor.

The program (starebrain/flows/program.py) is walked by a generator. Each concrete step it asks for is
appended to the task and persisted before the executor runs it, so the executor's write-ahead attempts,
confirmations and crash recovery apply unchanged. Each screen decision (`when`, `repeat while`, an
assertion) is persisted too, as an already-settled step, *before* the steps it lets through. Resuming
walks the program again against the recorded steps: every decision is read back, never re-taken, and a
recorded step is never run again. docs/flows.md has the whole argument.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starebrain.errors import FlowInvalid
from starebrain.events import Event, StepFinished, StepRecovered
from starebrain.flows.program import Check, Cond, Do, Finally, Node, RepeatWhile, Retry, Target, When
from starebrain.flows.text_pattern import TextPattern
from starebrain.models import AgentStep, AgentTask, Selector, StepResult, StepStatus, TaskStatus, WaitFor, new_id
from starebrain.snapshot.snapshot import ScreenSnapshot

if TYPE_CHECKING:
    from starebrain.executor.task_executor import TaskExecutor
    from starebrain.store.protocol import TaskStore

DECIDED_TRUE, DECIDED_FALSE = "flow:true", "flow:false"
ASSERTED = "flow:assert"
# A failed assertion becomes a step the executor fails: it waits (briefly) for an id no app uses.
NEVER_THERE = Selector(resource_id="starebrain:id/assertion-failed")
SCREENSHOT_PREFIX = "screenshot-"  # takeScreenshot NAME -> <artifacts>/<task>/screenshot-NAME.png
SNAP_ATTEMPT = 999_999  # no step has that many attempts, so the file it is first saved as is never a real one
PROBE_S = 1.0  # how long a `when`/`while` condition may take to become true
# How long an element named by a text regex may take to appear (Maestro waits 17 s, 7 s when optional).
LOOKUP_S, OPTIONAL_LOOKUP_S = 10.0, 3.0
POLL_S = 0.2

Request = tuple[str, Any]


class _Failed(Exception):
    """A step of the flow failed (and was not optional)."""


@dataclass
class _Waiting:
    step: AgentStep
    optional: bool
    reason: str = ""  # a failed assertion's own words, for the step and the task


class FlowDriver:
    """Walks a flow program for one task; wrap every executor call in `drive` so the walk continues."""

    def __init__(self, executor: TaskExecutor, store: TaskStore, program: tuple[Node, ...], *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.executor, self.store, self.program, self.sleep = executor, store, program, sleep
        self.task: AgentTask | None = None
        self._gen: Generator[Request, Any, None] | None = None
        self._request: Request | None = None
        self._waiting: _Waiting | None = None
        self._pos = 0
        self._persisted = False
        self._error: BaseException | None = None
        self._failure = ""  # why the flow failed, kept while an on_complete hook runs after the failure
        self.failed = False
        executor.events.subscribe(self._on_event)

    # -- entry points -----------------------------------------------------------------------

    def start(self, task: AgentTask) -> AgentTask:
        """Persist a new task with its first concrete step(s) and run it."""
        self.task = task
        self._begin()
        self._persisted = True  # executor.start creates the task before it runs a step
        if not task.steps:  # e.g. every step sat behind a false `when`: nothing to do
            self.store.create_task(task)
            return self.executor.run(task)
        return self.drive(lambda: self.executor.start(task))

    def replay(self, task: AgentTask) -> None:
        """Walk the program against a recorded task (every decision read back), up to its cursor."""
        self.task, self._persisted = task, True
        self._begin()

    def resume(self, task: AgentTask) -> AgentTask:
        """Continue a task this flow started: replay its recorded steps, then run from the cursor."""
        self.replay(task)
        if task.status == TaskStatus.AWAITING_CONFIRMATION:
            return task
        return self.drive(lambda: self.executor.run(task))

    def drive(self, call: Callable[[], AgentTask]) -> AgentTask:
        """Run one executor call, then settle a failed optional/retried step and go on while there is more."""
        task = self._checked(call())
        while True:
            if task.status == TaskStatus.FAILED and self._waiting is not None and not self.failed:
                step = task.steps[task.cursor] if task.cursor < len(task.steps) else None
                if step is None or step.id != self._waiting.step.id or step.status != StepStatus.FAILED:
                    return task
                self._answer(self._settle_failed(task, step))
                if self.failed:
                    self.store.save_task(task)
                    return task
                task = self._checked(self.executor.run(self._reopen(task)))
                continue
            if task.status == TaskStatus.COMPLETED and self.failed:
                return self._fail_after_hook(task)
            if task.status == TaskStatus.COMPLETED and self._request is not None and not self.failed:
                # Only when a step was skipped by a person (no StepFinished): carry on from there.
                if self._waiting is not None:  # past it first: the walk goes on after the skipped step
                    self._answer(self._past(self._waiting.step))
                if not self._more():
                    return task
                task = self._checked(self.executor.run(self._reopen(task)))
                continue
            return task

    def _fail_after_hook(self, task: AgentTask) -> AgentTask:
        """The executor ran out of steps after an on_complete hook: the flow's result is its failure."""
        failed = [s for s in task.steps if s.status == StepStatus.FAILED]
        last = failed[-1] if failed else None
        reason = self._failure or (f"step {last.index + 1} failed: {last.result.message if last.result else ''}"
                                   if last is not None else "a step failed")
        task.status, task.status_reason = TaskStatus.FAILED, reason
        self.store.save_task(task)
        return task

    def _checked(self, task: AgentTask) -> AgentTask:
        """A failure inside the event hook (the phone lost during a look) leaves the task resumable."""
        self.task = task
        error, self._error = self._error, None
        if error is None:
            return task
        if task.status == TaskStatus.COMPLETED:  # the executor ran out of steps because we could not add one
            task.status, task.status_reason = TaskStatus.IN_PROGRESS, f"flow paused: {error}"
            self.store.save_task(task)
        raise error

    # -- the walk ---------------------------------------------------------------------------

    def _begin(self) -> None:
        assert self.task is not None
        self._gen, self._pos, self.failed = _walk(self.program), 0, False
        self._request = self._next(None)
        self._pump()

    def _next(self, answer: Any) -> Request | None:
        assert self._gen is not None
        try:
            return self._gen.send(answer) if answer is not None or self._request is not None else next(self._gen)
        except StopIteration:
            return None
        except _Failed:
            self.failed = True
            return None

    def _answer(self, answer: Any) -> None:
        self._waiting = None
        self._request = self._next(answer)
        self._pump()

    def _more(self) -> bool:
        return self._waiting is not None

    def _pump(self) -> None:
        """Answer requests from the record, or append new steps, until a step must run or the walk ends."""
        task = self.task
        assert task is not None
        appended = False
        while self._request is not None and self._waiting is None:
            kind, what = self._request
            recorded = task.steps[self._pos] if self._pos < len(task.steps) else None
            if kind in ("snap", "settle"):
                if recorded is None:
                    self._side_look(kind, what)
                self._request = self._next(True)
                continue
            if recorded is not None:
                answer = self._replay(kind, what, recorded)
            else:
                answer = self._live(kind, what)
                appended = True
            if answer is None:  # a step to run: the executor takes it from here
                return self._save(appended)
            self._pos += 1
            self._request = self._next(answer)
        self._save(appended)

    def _replay(self, kind: str, what: Any, recorded: AgentStep) -> Any:
        task = self._current()
        if kind == "probe":
            if recorded.result is None or recorded.result.settled_by not in (DECIDED_TRUE, DECIDED_FALSE):
                raise FlowInvalid(f"step {recorded.index + 1} of task {task.id} is not the decision "
                                  f"the flow expects there; the flow file changed since the task started")
            return recorded.result.settled_by == DECIDED_TRUE
        template: AgentStep = what[0] if kind == "run" else what
        if kind == "run" and not _same_step(recorded, template, what[2]):
            raise FlowInvalid(f"step {recorded.index + 1} of task {task.id} ({recorded.instruction}) "
                              f"differs from the flow file; the flow changed since the task started")
        if recorded.status in (StepStatus.COMPLETED, StepStatus.SKIPPED):
            return recorded
        if recorded.status == StepStatus.FAILED and task.cursor > recorded.index:
            return recorded  # a failure a retry already moved past
        optional = what[1] if kind == "run" else what.optional
        reason = "assertion failed" if recorded.action == _NOT_FOUND else ""
        self._waiting = _Waiting(recorded, optional=optional, reason=reason)
        return None

    def _current(self) -> AgentTask:
        """The task being driven (set by `start`/`resume` before any step is walked)."""
        assert self.task is not None
        return self.task

    def _live(self, kind: str, what: Any) -> Any:
        task = self.task
        assert task is not None
        if kind == "probe":
            cond, label = what
            holds = self._holds(cond, PROBE_S)
            self._append(_record(label, cond, holds))
            return holds
        if kind == "check":
            check: Check = what
            if self._holds(check.cond, check.timeout_s):
                return self._append(_passed(check))
            reason = f"{check.cond.describe()}: not so after {check.timeout_s:g} s"
            step = AgentStep(instruction=check.label, action=_NOT_FOUND)
            self._reopen(task)
            self._waiting = _Waiting(self._append(step), optional=check.optional, reason=reason)
            return None
        template, optional, pattern = what
        self._reopen(task)
        reason = ""
        if pattern is not None:
            template, reason = self._resolved(template, pattern, OPTIONAL_LOOKUP_S if optional else LOOKUP_S)
        self._waiting = _Waiting(self._append(template.model_copy(deep=True)), optional=optional, reason=reason)
        return None

    def _resolved(self, template: AgentStep, pattern: TextPattern, timeout_s: float) -> tuple[AgentStep, str]:
        """The step with its element found on the screen by the regex; a failing step when none appears."""
        found: list[Selector] = []

        def seen(snap: ScreenSnapshot) -> bool:
            node = pattern.find(snap)
            if node is not None:
                found.append(pattern.selector_for(snap, node))
            return node is not None

        if self._poll(seen, timeout_s):
            action = template.action.model_copy(update={"selector": found[-1]})
            return template.model_copy(update={"action": action}), ""
        reason = f"no element with {pattern.describe()} after {timeout_s:g} s"
        return AgentStep(instruction=template.instruction, action=_NOT_FOUND), reason

    def _append(self, step: AgentStep) -> AgentStep:
        task = self.task
        assert task is not None
        fresh = step.model_copy(update={"index": len(task.steps), "id": new_id()})  # one id per concrete step
        task.steps.append(fresh)
        return fresh

    def _save(self, appended: bool) -> None:
        if appended and self.task is not None and self._persisted:
            self.store.save_task(self.task)

    def _reopen(self, task: AgentTask) -> AgentTask:
        """After a forgiven or retried failure the task runs again from the first step not yet run."""
        if task.status in (TaskStatus.FAILED, TaskStatus.COMPLETED):
            task.status = TaskStatus.IN_PROGRESS
            task.status_reason = ""
            task.cursor = next((s.index for s in task.steps if s.status in (StepStatus.PENDING,
                                                                             StepStatus.IN_PROGRESS)),
                               len(task.steps))
            if self._persisted:
                self.store.save_task(task)
        return task

    def _settle_failed(self, task: AgentTask, step: AgentStep) -> AgentStep:
        """An optional step's failure is recorded SKIPPED (message kept); others stay FAILED (a retry follows)."""
        waiting = self._waiting
        assert waiting is not None
        message = waiting.reason or (step.result.message if step.result else "")
        if waiting.optional:
            step.status = StepStatus.SKIPPED
            step.result = StepResult(ok=False, message=f"optional step failed, flow carried on: {message}")
            return self._past(step)
        if waiting.reason:
            step.result = StepResult(ok=False, message=message)
            task.status_reason = f"step {step.index + 1} failed: {message}"
        self._failure = task.status_reason or f"step {step.index + 1} failed: {message}"
        return self._past(step)

    def _past(self, step: AgentStep) -> AgentStep:
        self._pos = step.index + 1
        return step

    def _on_event(self, event: Event) -> None:
        """Inside the executor's loop: when the step we wait on completes, extend the task at once."""
        waiting = self._waiting
        if self.task is None or waiting is None or event.task_id != self.task.id:
            return
        done = (isinstance(event, StepFinished) and event.status == StepStatus.COMPLETED.value) or \
               (isinstance(event, StepRecovered) and event.how == "expect")
        if done and getattr(event, "step_id", None) == waiting.step.id:
            self._pos = waiting.step.index + 1
            try:
                self._answer(waiting.step)
            except Exception as exc:  # the bus would swallow it; drive() raises it after the executor returns
                self._error = exc

    # -- looking at the screen --------------------------------------------------------------

    def _holds(self, cond: Cond, timeout_s: float) -> bool:
        def holds(snap: ScreenSnapshot) -> bool:
            shown = cond.visible is None or _on(snap, cond.visible)
            return shown and (cond.not_visible is None or not _on(snap, cond.not_visible))

        return self._poll(holds, timeout_s)

    def _poll(self, test: Callable[[ScreenSnapshot], bool], timeout_s: float) -> bool:
        """Look at the screen until `test` holds or `timeout_s` has passed."""
        deadline = time.monotonic() + timeout_s
        while True:
            _, snap = self.executor.runner.look()
            if test(snap):
                return True
            if time.monotonic() >= deadline:
                return False
            self.sleep(POLL_S)

    def _side_look(self, kind: str, what: Any) -> None:
        """takeScreenshot / waitForAnimationToEnd: they change nothing on the phone and are not recorded."""
        runner = self.executor.runner
        if kind == "snap":
            obs, _ = runner.look(screenshot=True)
            task = self._current()
            # Saved (secrets painted over) as a throw-away attempt, then named as the flow asked.
            saved = runner.artifacts.save(task.id, len(task.steps), SNAP_ATTEMPT, obs)
            for made in (saved.screenshot_path, saved.hierarchy_path):
                if made:
                    Path(made).replace(Path(made).with_name(f"{SCREENSHOT_PREFIX}{_file_name(str(what))}"
                                                            f"{Path(made).suffix}"))
            return
        deadline, last = time.monotonic() + float(what), None
        while time.monotonic() < deadline:
            _, snap = runner.look()
            if snap.hash == last:
                return
            last = snap.hash
            self.sleep(POLL_S)


def _walk(nodes: tuple[Node, ...]) -> Generator[Request, Any, None]:
    """The program's order of requests; answers are settled steps (run/check) or booleans (probe)."""
    for node in nodes:
        if isinstance(node, Do):
            step = yield ("run", (node.step, node.optional, node.pattern))
            if step.status == StepStatus.FAILED:
                raise _Failed
        elif isinstance(node, Check):
            step = yield ("check", node)
            if step.status == StepStatus.FAILED:
                raise _Failed
        elif isinstance(node, When):
            if (yield ("probe", (node.cond, node.label))):
                yield from _walk(node.body)
        elif isinstance(node, RepeatWhile):
            for _ in range(node.max_times):
                if not (yield ("probe", (node.cond, f"{node.label}: another turn?"))):
                    break
                yield from _walk(node.body)
        elif isinstance(node, Retry):
            for attempt in range(node.max_retries + 1):
                try:
                    yield from _walk(node.body)
                    break
                except _Failed:
                    if attempt == node.max_retries:
                        raise
        elif isinstance(node, Finally):
            try:
                yield from _walk(node.body)
            except _Failed:
                yield from _walk(node.after)
                raise
            yield from _walk(node.after)
        elif isinstance(node, tuple):  # ("snap", name) / ("settle", seconds) from Maestro
            yield node


_NOT_FOUND = WaitFor(selector=NEVER_THERE, timeout_s=0.3)


def _file_name(name: str) -> str:
    """A takeScreenshot path as one safe file name (`shots/end.png` -> `shots-end`)."""
    stem = name[:-4] if name.lower().endswith((".png", ".jpg")) else name
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-.") or "screenshot"


def _on(snap: ScreenSnapshot, target: Target) -> bool:
    return (target.find(snap) if isinstance(target, TextPattern) else snap.resolve(target)) is not None


def _same_step(recorded: AgentStep, template: AgentStep, pattern: TextPattern | None) -> bool:
    """A recorded step is the flow's step there (one found by a regex: any element the regex accepts)."""
    if recorded.instruction != template.instruction:
        return False
    if pattern is None:
        return recorded.action == template.action
    if recorded.action == _NOT_FOUND:
        return True
    found = getattr(recorded.action, "selector", None)
    return isinstance(found, Selector) and pattern.accepts(found) and \
        recorded.action == template.action.model_copy(update={"selector": found})


def _selector_of(cond: Cond) -> Selector:
    target = cond.visible or cond.not_visible
    assert target is not None
    return target.placeholder() if isinstance(target, TextPattern) else target


def _record(label: str, cond: Cond, holds: bool) -> AgentStep:
    """A decision, persisted as a settled step before anything it lets through runs."""
    sel = _selector_of(cond)
    return AgentStep(instruction=f"{label}: {'yes' if holds else 'no'}", action=WaitFor(selector=sel),
                     status=StepStatus.COMPLETED,
                     result=StepResult(ok=True, message=f"{cond.describe()}: {'yes' if holds else 'no'}",
                                       settled_by=DECIDED_TRUE if holds else DECIDED_FALSE))


def _passed(check: Check) -> AgentStep:
    return AgentStep(instruction=check.label, action=WaitFor(selector=_selector_of(check.cond)),
                     status=StepStatus.COMPLETED,
                     result=StepResult(ok=True, message=f"{check.cond.describe()}: checked", settled_by=ASSERTED))
