"""The cursor executor: all eight points of the cursor contract (docs/architecture.md).

It calls a Device (through StepRunner), a ConfirmationGuard, a Store and optionally a Planner, and
emits events. It knows nothing of terminals, files or HTTP.
"""

from __future__ import annotations

from starebrain.errors import CancelRequested, LlmError, StareBrainError, TaskStateError
from starebrain.events import (
    ConfirmationDecided,
    ConfirmationRequested,
    EventBus,
    Replanned,
    StepFinished,
    StepRecovered,
    StepStarted,
    TaskFinished,
    TaskStarted,
)
from starebrain.executor.crash_points import crash_point
from starebrain.executor.replan_policy import ReplanPolicy
from starebrain.executor.seams import Guard, StepReplanner
from starebrain.executor.step_runner import StepReport, StepRunner
from starebrain.guard.act_gate import ActGate
from starebrain.guard.concrete_action import ConcreteAction, approval_key, covers
from starebrain.llm.base import Planner
from starebrain.models import (
    AgentStep,
    AgentTask,
    Attempt,
    AttemptOutcome,
    Confirmation,
    Decision,
    LlmCall,
    OpenApp,
    StepResult,
    StepStatus,
    TaskStatus,
    utcnow,
)
from starebrain.store.protocol import TaskStore

INTERRUPTED_REASON = "interrupted mid-action; it may already have happened"
PAUSED_REASON = "paused by the person (Ctrl-C or SIGTERM); `starebrain resume` continues it"
MAX_REWINDS_PER_STEP = 2  # phone-restart recoveries of one step within one command


class TaskExecutor:
    """Walks a task's steps from its cursor; every state change is committed before it matters."""

    def __init__(self, runner: StepRunner, store: TaskStore, guard: Guard, events: EventBus, *,
                 planner: Planner | None = None, policy: ReplanPolicy | None = None,
                 replanner: StepReplanner | None = None) -> None:
        self.runner = runner
        self.store = store
        self.guard = guard
        self.events = events
        self.planner = planner
        self.policy = policy or ReplanPolicy()
        self.replanner = replanner  # builds ReplanRequests and merges revised steps (planning layer)
        self._rewinds: dict[str, int] = {}

    # -- entry points -----------------------------------------------------------------------

    def start(self, task: AgentTask) -> AgentTask:
        """Persist a new task and run it."""
        self.store.create_task(task)
        return self.run(task)

    def run(self, task: AgentTask) -> AgentTask:
        """Continue from the cursor until done, waiting for the person, failed or paused.

        Ctrl-C (KeyboardInterrupt) leaves the task PAUSED; a cancel requested by another process
        is honoured at the next step boundary (the task ends CANCELLED)."""
        if task.status.resolved:
            return task
        if task.status == TaskStatus.AWAITING_CONFIRMATION and not self._apply_decided(task):
            return task
        try:
            self._set_status(task, TaskStatus.IN_PROGRESS, "")
            self.events.emit(TaskStarted(task.id, instruction=task.instruction, steps=len(task.steps),
                                         cursor=task.cursor))
            if not self._recover(task):
                return task
            while task.cursor < len(task.steps):
                if self._cancel_requested(task) or not self._advance(task, task.steps[task.cursor]):
                    return task
            return self._finish(task, TaskStatus.COMPLETED, "")
        except CancelRequested:
            self._cancel_requested(task)
            return task
        except KeyboardInterrupt:
            self._pause(task)
            raise

    def approve(self, task: AgentTask, decided_by: str) -> AgentTask:
        """Run exactly the approved step (bound to its hash), then carry on with normal checks.

        The decision, the status and the step commit in one transaction: a kill right after it
        leaves an IN_PROGRESS task whose unused approval `resume` (or the daemon) honours."""
        pending, step = self._pending(task)
        if step.status == StepStatus.IN_PROGRESS:  # "redo" of an interrupted step
            step.status = StepStatus.PENDING
        self._decide(task, pending, Decision.APPROVED, decided_by, TaskStatus.IN_PROGRESS, "")
        return self.run(task)

    def deny(self, task: AgentTask, decided_by: str) -> AgentTask:
        """The person said no: nothing happens, the task fails with the reason."""
        pending, step = self._pending(task)
        if step.status == StepStatus.IN_PROGRESS:
            step.status = StepStatus.FAILED
        step.result = StepResult(ok=False, message=f"denied by the person ({decided_by})")
        return self._decide(task, pending, Decision.DENIED, decided_by, TaskStatus.FAILED,
                            f"step {step.index + 1} denied: {step.instruction}")

    def skip(self, task: AgentTask, decided_by: str) -> AgentTask:
        """The person said: do not run it, carry on (e.g. it already happened). Answers the open
        question, or passes over the failed step of a FAILED task (the person sees it is done)."""
        step = task.current_step
        if task.status == TaskStatus.FAILED and step is not None and step.status == StepStatus.FAILED:
            _mark_skipped(task, step, decided_by)
            self._set_status(task, TaskStatus.IN_PROGRESS, "")
            return self.run(task)
        pending, step = self._pending(task)
        _mark_skipped(task, step, decided_by)
        self._decide(task, pending, Decision.SKIPPED, decided_by, TaskStatus.IN_PROGRESS, "")
        return self.run(task)

    def retry(self, task: AgentTask, from_step: int | None = None) -> AgentTask:
        """Re-run the step under the cursor of a failed (or paused) task; it is never skipped.

        `from_step` (1-based) first moves the cursor back to that step, re-running the reversible
        steps since; refused across an irreversible step that is done or whose outcome is unknown."""
        if task.status not in (TaskStatus.FAILED, TaskStatus.IN_PROGRESS, TaskStatus.PAUSED):
            raise TaskStateError(f"task {task.id} is {task.status.value}; only a failed or paused task "
                                 f"can be retried", task_id=task.id)
        if from_step is not None:
            self._move_back(task, from_step - 1)
        step = task.current_step
        if step is not None and step.status == StepStatus.FAILED:
            step.status = StepStatus.PENDING
        self._set_status(task, TaskStatus.IN_PROGRESS, "")
        return self.run(task)

    def cancel(self, task: AgentTask, decided_by: str) -> AgentTask:
        """Stop for good; pending questions are closed (in the same transaction), history stays."""
        if task.status.resolved:
            raise TaskStateError(f"task {task.id} is already {task.status.value}", task_id=task.id)
        return self._end_cancelled(task, decided_by)

    # -- the loop ---------------------------------------------------------------------------

    def _advance(self, task: AgentTask, step: AgentStep) -> bool:
        """Guard, run and settle the step under the cursor; False when the loop must stop."""
        if step.status in (StepStatus.COMPLETED, StepStatus.SKIPPED):
            task.cursor += 1
            return True
        if step.irreversible and self._done_in_history(task, step):
            return True
        approval = self._approval(task, step)
        if approval is None:
            decision = self.guard.check(step)
            if decision.needs_confirmation:
                self._ask(task, step, decision.reason, self.runner.preview(step))
                return False
        # The act-time guard judges what will really be touched; the approval covers only what the person saw.
        self.runner.act_gate = ActGate(self.guard, approval.approved_hash if approval else None)
        report = self._execute(task, step, confirmed_by=approval.decided_by if approval else None)
        if report.needs_person:
            step.status = StepStatus.PENDING
            self._ask(task, step, report.needs_person, report.concrete)
            return False
        if report.ok:
            return True
        if report.device_error is not None:
            raise report.device_error
        if step.status == StepStatus.IN_PROGRESS:  # an irreversible action with an unknown outcome
            self._ask(task, step, INTERRUPTED_REASON)
            return False
        return self._after_failure(task, step, report)

    def _execute(self, task: AgentTask, step: AgentStep, *, confirmed_by: str | None) -> StepReport:
        number = self.store.next_attempt_number(task.id, step.id)
        attempt = Attempt(task_id=task.id, step_id=step.id, number=number)
        before = step.status
        step.status = StepStatus.IN_PROGRESS
        try:
            self.store.begin_attempt(task, attempt)  # write-ahead, before the device is touched
        except StareBrainError:  # nothing was written (cancelled, stale copy, lease lost)
            step.status = before
            raise
        crash_point("after_begin", step.index)
        self.events.emit(StepStarted(task.id, step_id=step.id, index=step.index,
                                     instruction=step.instruction, attempt=number))
        report = self.runner.run(task.id, step, number)
        self._settle(task, step, attempt, report, confirmed_by)
        return report

    def _settle(self, task: AgentTask, step: AgentStep, attempt: Attempt, report: StepReport,
                confirmed_by: str | None) -> None:
        attempt.ended_at = utcnow()
        attempt.error = "" if report.ok else report.message
        attempt.obstructions = list(report.obstructions)
        attempt.phases_ms = {k: round(v, 2) for k, v in report.phases_ms.items()}
        if report.saved is not None:
            attempt.screenshot_path = report.saved.screenshot_path
            attempt.hierarchy_path = report.saved.hierarchy_path
            attempt.hierarchy_hash = report.saved.hierarchy_hash
        self._record_calls(task, report.llm_calls)
        self._apply_outcome(task, step, attempt, report, confirmed_by)
        self.store.finish_attempt(task, attempt)
        crash_point("after_commit", step.index)
        if report.screen is not None:
            self.policy.record_action(step, report.screen.hash)
        self.events.emit(StepFinished(task.id, step_id=step.id, index=step.index, instruction=step.instruction,
                                      status=step.status.value, message=attempt.error,
                                      duration_ms=sum(attempt.phases_ms.values()), attempt=attempt.number))

    def _apply_outcome(self, task: AgentTask, step: AgentStep, attempt: Attempt, report: StepReport,
                       confirmed_by: str | None) -> None:
        if report.ok:
            attempt.outcome = AttemptOutcome.SUCCEEDED
            step.status = StepStatus.COMPLETED
            step.result = StepResult(ok=True, message=_ok_message(report), confirmed_by=confirmed_by)
            task.cursor = step.index + 1
        elif report.device_error is not None and report.acted:
            # The action may have reached the phone: the outcome is unknown, recovery settles it.
            attempt.outcome = AttemptOutcome.INTERRUPTED
            task.status_reason = f"phone lost during step {step.index + 1}: {report.message}"
        elif report.device_error is not None:
            attempt.outcome = AttemptOutcome.FAILED
            step.status = StepStatus.PENDING  # nothing was sent; simply run it again later
            task.status_reason = f"phone lost before step {step.index + 1} acted: {report.message}"
        elif step.irreversible and report.acted:
            # Its action went out but its effect did not show (e.g. the phone restarted): it may have
            # happened, so it is never simply failed and retried; the person settles it.
            attempt.outcome = AttemptOutcome.INTERRUPTED
        else:
            attempt.outcome = AttemptOutcome.FAILED
            step.status = StepStatus.FAILED  # cursor stays on the failed step (contract point 5)
            step.result = StepResult(ok=False, message=report.message, confirmed_by=confirmed_by)

    def _after_failure(self, task: AgentTask, step: AgentStep, report: StepReport) -> bool:
        if self._rewind(task, step):
            return True
        if self.replanner is not None and self.planner is not None:
            ok, why = self.policy.should_replan(task, step, blocked=report.blocked)
            if ok:
                return self._replan(task, step, report)
            reason = f"step {step.index + 1} failed: {report.message} (no replan: {why})"
        else:
            reason = f"step {step.index + 1} failed: {report.message}"
        self._finish(task, TaskStatus.FAILED, reason)
        return False

    def _replan(self, task: AgentTask, step: AgentStep, report: StepReport) -> bool:
        assert self.replanner is not None  # _after_failure checked
        try:
            revised, calls = self.replanner.replan(task, step, report)
        except LlmError as exc:  # the task ends cleanly failed, with the calls that were made
            self._record_calls(task, getattr(exc, "llm_calls", []))
            self._finish(task, TaskStatus.FAILED, f"step {step.index + 1} failed: {report.message}; "
                                                  f"replanning failed: {exc}")
            return False
        self._record_calls(task, calls)
        removed = len(task.steps) - task.cursor
        merged = task.with_revised_steps(revised)
        task.steps = merged.steps
        task.replan_count += 1
        self.store.save_task(task)
        self.events.emit(Replanned(task.id, cursor=task.cursor, removed=removed, added=len(revised),
                                   reason=report.message))
        return True

    # -- confirmation -----------------------------------------------------------------------

    def _ask(self, task: AgentTask, step: AgentStep, reason: str, concrete: ConcreteAction | None = None) -> None:
        """Contract point 1: AWAITING_CONFIRMATION with the cursor on the step, committed first.

        With `concrete`, the question (and so the approval) is about that concrete action on the phone.
        """
        task.cursor = step.index
        if concrete is not None and concrete.describe() not in reason and reason != INTERRUPTED_REASON:
            reason = f"{reason}; on the phone: {concrete.describe()}"  # the interrupted question keeps its words
        confirmation = Confirmation(task_id=task.id, step_id=step.id, approved_hash=approval_key(step, concrete),
                                    reason=reason)
        task.status = TaskStatus.AWAITING_CONFIRMATION
        task.status_reason = reason
        self.store.add_confirmation(confirmation, task=task)  # question and status in one transaction
        self.events.emit(ConfirmationRequested(task.id, step_id=step.id, index=step.index,
                                               instruction=step.instruction, reason=reason))

    def _approval(self, task: AgentTask, step: AgentStep) -> Confirmation | None:
        """An approval of exactly this step (same hash) not yet used by an attempt."""
        decided = [c for c in self.store.confirmations(task.id)
                   if c.step_id == step.id and c.decision is not None]
        if not decided:
            return None
        last = decided[-1]
        if last.decision != Decision.APPROVED or not covers(last.approved_hash, step):
            return None
        assert last.decided_at is not None  # stored together with the decision
        used = any(a.started_at >= last.decided_at for a in self.store.attempts(task.id, step.id))
        return None if used else last

    def _pending(self, task: AgentTask) -> tuple[Confirmation, AgentStep]:
        if task.status != TaskStatus.AWAITING_CONFIRMATION:
            hint = "" if task.status.resolved else f"; `starebrain resume {task.id}` continues it"
            raise TaskStateError(f"task {task.id} is {task.status.value}, not awaiting confirmation{hint}",
                                 task_id=task.id)
        pending = self.store.pending_confirmation(task.id)
        step = task.current_step
        if pending is None or step is None or pending.step_id != step.id:
            raise TaskStateError(f"task {task.id} has no open question for its current step (it was "
                                 f"answered already); `starebrain resume {task.id}` applies the answer",
                                 task_id=task.id)
        if not covers(pending.approved_hash, step):
            raise TaskStateError(f"step {step.index + 1} changed since the question was asked; "
                                 f"resume to be asked again", task_id=task.id)
        return pending, step

    def _decide(self, task: AgentTask, pending: Confirmation, decision: Decision, decided_by: str,
                status: TaskStatus, reason: str) -> AgentTask:
        """Commit the decision with the task's new status, cursor and step, in one transaction."""
        task.status = status
        task.status_reason = reason
        crash_point("before_decide", task.cursor)
        self.store.decide(task, pending.id, decision, decided_by)
        crash_point("after_decide", task.cursor)
        self.events.emit(ConfirmationDecided(task.id, step_id=pending.step_id, decision=decision.value,
                                             decided_by=decided_by))
        if status.resolved:
            self._emit_finished(task)
        return task

    def _apply_decided(self, task: AgentTask) -> bool:
        """A task left AWAITING_CONFIRMATION whose question was answered (by an older version that
        committed the two apart): apply that answer. False when it still waits (or now failed)."""
        if self.store.pending_confirmation(task.id) is not None:
            return False
        step = task.current_step
        decided = [c for c in self.store.confirmations(task.id)
                   if step is not None and c.step_id == step.id and c.decision is not None]
        if step is None or not decided:
            return True  # nothing asked for this step: run() asks again if the guard wants to
        last = decided[-1]
        if last.decision == Decision.SKIPPED:
            _mark_skipped(task, step, last.decided_by or "the person")
        elif last.decision == Decision.DENIED:
            step.result = StepResult(ok=False, message=f"denied by the person ({last.decided_by})")
            self._finish(task, TaskStatus.FAILED, f"step {step.index + 1} denied: {step.instruction}")
            return False
        elif step.status == StepStatus.IN_PROGRESS:  # approved "redo" of an interrupted step
            step.status = StepStatus.PENDING
        return True

    # -- cancel and pause -------------------------------------------------------------------

    def _cancel_requested(self, task: AgentTask) -> bool:
        """At a step boundary: honour a cancel another process recorded. True when it did."""
        by = self.store.cancel_requested(task.id)
        if by is None:
            return False
        self._end_cancelled(task, by)
        return True

    def _end_cancelled(self, task: AgentTask, decided_by: str) -> AgentTask:
        reason = f"cancelled by the person ({decided_by})"
        pending = self.store.pending_confirmation(task.id)
        if pending is not None:
            return self._decide(task, pending, Decision.DENIED, decided_by, TaskStatus.CANCELLED, reason)
        return self._finish(task, TaskStatus.CANCELLED, reason)

    def _pause(self, task: AgentTask) -> None:
        """Ctrl-C: leave the task PAUSED (the daemon does not resume those); best effort."""
        try:
            self._set_status(task, TaskStatus.PAUSED, PAUSED_REASON)
        except StareBrainError:
            pass  # lease gone or the database busy: the task stays as last written

    # -- what the history says --------------------------------------------------------------

    def _done_in_history(self, task: AgentTask, step: AgentStep) -> bool:
        """An irreversible step with a SUCCEEDED attempt or a SKIPPED answer is never asked or run
        again, whatever an in-memory copy says: the stored history decides."""
        if any(a.outcome == AttemptOutcome.SUCCEEDED for a in self.store.attempts(task.id, step.id)):
            step.status = StepStatus.COMPLETED
            step.result = StepResult(ok=True, message="already done (attempt history)", settled_by="history")
        elif any(c.step_id == step.id and c.decision == Decision.SKIPPED for c in self.store.confirmations(task.id)):
            step.status = StepStatus.SKIPPED
            step.result = StepResult(ok=True, message="skipped by the person earlier", settled_by="history")
        else:
            return False
        task.cursor = step.index + 1
        self.store.save_task(task)
        self.events.emit(StepRecovered(task.id, step_id=step.id, index=step.index, how="history"))
        return True

    def _irreversible_done(self, task: AgentTask, steps: list[AgentStep]) -> AgentStep | None:
        """The first irreversible step among `steps` that is done or may have happened."""
        for s in steps:
            if not s.irreversible:
                continue
            if s.status in (StepStatus.COMPLETED, StepStatus.SKIPPED, StepStatus.IN_PROGRESS):
                return s
            if any(a.outcome != AttemptOutcome.FAILED for a in self.store.attempts(task.id, s.id)):
                return s
        return None

    def _move_back(self, task: AgentTask, index: int) -> None:
        """`retry --from`: put the cursor back on step `index`, its steps since to run again."""
        if not 0 <= index <= min(task.cursor, len(task.steps) - 1):
            raise TaskStateError(f"step {index + 1} is not between 1 and the cursor's step "
                                 f"{min(task.cursor, len(task.steps) - 1) + 1}", task_id=task.id)
        again = task.steps[index:task.cursor + 1]
        blocking = self._irreversible_done(task, again)
        if blocking is not None:
            raise TaskStateError(f"cannot move back to step {index + 1}: step {blocking.index + 1} "
                                 f"({blocking.instruction}) is irreversible and was done or may have "
                                 f"happened", task_id=task.id)
        for s in again:
            s.status = StepStatus.PENDING
            s.result = None
        task.cursor = index

    def _rewind(self, task: AgentTask, step: AgentStep) -> bool:
        """After a phone restart: the app of the step's segment is not in front any more, so go back
        to the segment's `open_app` and re-run the reversible steps since. False when that is not
        possible (no checkpoint, an irreversible step done in between, or tried enough)."""
        if self.runner is None:
            return False
        start = next((i for i in range(step.index, -1, -1)  # an open_app step is its own checkpoint
                      if isinstance(task.steps[i].action, OpenApp)), None)
        if start is None or self._rewinds.get(step.id, 0) >= MAX_REWINDS_PER_STEP:
            return False
        if self._irreversible_done(task, task.steps[start:step.index]) is not None:
            return False
        obs, _ = self.runner.look()
        opened = task.steps[start].action
        if isinstance(opened, OpenApp) and obs.package == opened.package:
            return False  # the app is in front: a real failure, not a restarted phone
        self._rewinds[step.id] = self._rewinds.get(step.id, 0) + 1
        for s in task.steps[start:step.index + 1]:
            s.status = StepStatus.PENDING
            s.result = None
        task.cursor = start
        self.store.save_task(task)
        self.events.emit(StepRecovered(task.id, step_id=step.id, index=step.index, how=f"rewound to step {start + 1}"))
        return True

    # -- crash recovery (contract point 7) --------------------------------------------------

    def _recover(self, task: AgentTask) -> bool:
        """Settle a step found IN_PROGRESS; False when the person must decide first."""
        step = task.current_step
        if step is None or step.status != StepStatus.IN_PROGRESS:
            return True
        self._close_dangling_attempts(task, step)
        _, snap = self.runner.look()
        if step.expect is not None and snap.resolve(step.expect) is not None:
            message = "settled after interruption: expected screen present"
            step.status = StepStatus.COMPLETED
            step.result = StepResult(ok=True, message=message, settled_by="expect")
            task.cursor = step.index + 1
            tried = self.store.attempts(task.id, step.id)
            if tried:  # the history says it happened, so it is never asked or run again
                tried[-1].outcome = AttemptOutcome.SUCCEEDED
                tried[-1].error = message
                self.store.finish_attempt(task, tried[-1])
            else:
                self.store.save_task(task)
            self.events.emit(StepRecovered(task.id, step_id=step.id, index=step.index, how="expect"))
            return True
        if step.irreversible or self.guard.check(step).needs_confirmation:
            self.events.emit(StepRecovered(task.id, step_id=step.id, index=step.index, how="asked"))
            self._ask(task, step, INTERRUPTED_REASON, self.runner.preview(step))
            return False
        step.status = StepStatus.PENDING
        self.store.save_task(task)
        self.events.emit(StepRecovered(task.id, step_id=step.id, index=step.index, how="rerun"))
        return True

    def _close_dangling_attempts(self, task: AgentTask, step: AgentStep) -> None:
        for attempt in self.store.attempts(task.id, step.id):
            if attempt.outcome == AttemptOutcome.RUNNING:
                attempt.outcome = AttemptOutcome.INTERRUPTED
                attempt.ended_at = utcnow()
                attempt.error = "process stopped before the outcome was recorded"
                self.store.finish_attempt(task, attempt)

    # -- bookkeeping ------------------------------------------------------------------------

    def _record_calls(self, task: AgentTask, calls: list[LlmCall]) -> None:
        for call in calls:
            call.task_id = task.id
            self.store.add_llm_call(call)
            task.prompt_tokens += call.prompt_tokens
            task.completion_tokens += call.completion_tokens

    def _set_status(self, task: AgentTask, status: TaskStatus, reason: str) -> None:
        task.status = status
        task.status_reason = reason
        task.updated_at = utcnow()
        self.store.save_task(task)

    def _finish(self, task: AgentTask, status: TaskStatus, reason: str) -> AgentTask:
        self._set_status(task, status, reason)
        self._emit_finished(task)
        return task

    def _emit_finished(self, task: AgentTask) -> None:
        self.events.emit(TaskFinished(task.id, status=task.status.value, reason=task.status_reason,
                                      cursor=task.cursor, steps=len(task.steps)))


def _mark_skipped(task: AgentTask, step: AgentStep, decided_by: str) -> None:
    step.status = StepStatus.SKIPPED
    step.result = StepResult(ok=True, message=f"skipped by the person ({decided_by})")
    task.cursor = step.index + 1


def _ok_message(report: StepReport) -> str:
    parts = ["done"]
    if report.obstructions:
        parts.append(f"cleared {len(report.obstructions)} obstruction(s)")
    if report.grounded is not None:
        parts.append(f"grounded to {report.grounded.describe()}")
    return "; ".join(parts)
