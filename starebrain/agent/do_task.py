"""`starebrain do "..."`: context → one planning call → a task the executor walks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starebrain.agent.step_targets import assign_target_packages
from starebrain.context.capture import capture_context
from starebrain.context.tracker import ContextTracker
from starebrain.errors import BadInput, ConfigInvalid, LlmError, TaskStateError
from starebrain.guard import ConfirmationGuard
from starebrain.llm.base import Planner, PlanningContext, calls_of
from starebrain.models import AgentContext, AgentTask
from starebrain.snapshot import ScreenSnapshot

if TYPE_CHECKING:
    from starebrain.device.base import Device
    from starebrain.profiles import Profiles
    from starebrain.store.protocol import SessionStore

SUMMARY_ITEMS = 20


class TaskPlanner:
    """Builds the planning context from the phone and turns an instruction into a persisted task."""

    def __init__(self, planner: Planner, store: SessionStore, device: Device, profiles: Profiles,
                 tracker: ContextTracker | None = None) -> None:
        self.planner = planner
        self.store = store
        self.device = device
        self.profiles = profiles
        # The session's tracker when there is one, so what planning learns is what the session saves.
        self.tracker = tracker or ContextTracker(device.serial, initial=store.load_context(device.serial))

    @staticmethod
    def unplanned(task: AgentTask) -> bool:
        """A do-task queued with its instruction only (`do --queue`): the daemon plans it before it runs."""
        return task.source == "do" and not task.steps and not task.status.resolved

    def launchable_packages(self) -> list[str]:
        """What a plan may open: the packages installed on this phone."""
        return sorted(self.device.installed_packages())

    def context(self, packages: list[str]) -> tuple[AgentContext, PlanningContext]:
        """The person's context (restored at LOW, refreshed from the screen) and the planner's view of it."""
        messaging = next((p for p in packages if self.profiles.category_of(p) == "messaging"), None)
        ctx = capture_context(self.device, self.tracker, messaging_package=messaging)
        snap = ScreenSnapshot.from_xml(self.device.observe().hierarchy_xml)
        planning = PlanningContext.from_agent_context(
            ctx, screen_summary=snap.summary(max_items=SUMMARY_ITEMS), launchable_packages=packages)
        return ctx, planning

    def plan(self, instruction: str) -> AgentTask:
        """One planning call; the task is saved with its steps and the call before anything runs."""
        if not instruction.strip():
            raise BadInput("the instruction is empty")
        task = AgentTask(instruction=instruction, device_serial=self.device.serial, source="do")
        return self._plan_into(task, saved=False)

    def plan_queued(self, task: AgentTask) -> AgentTask:
        """Plan a queued do-task (saved without steps) into itself: same id, its steps and calls saved.

        On an LlmError it is left FAILED with the reason and the calls made (the error is raised)."""
        if not self.unplanned(task):
            raise TaskStateError(f"task {task.id} is not a do-task waiting for its plan", task_id=task.id)
        return self._plan_into(task, saved=True)

    def _plan_into(self, task: AgentTask, *, saved: bool) -> AgentTask:
        """Context, one planning call, then `task` with its steps and calls in one write (`saved`: it exists)."""
        packages = self.launchable_packages()
        ctx, planning = self.context(packages)
        self.store.save_context(ctx)
        try:
            result = self.planner.plan(task.instruction, planning)
        except (LlmError, ConfigInvalid) as exc:  # ConfigInvalid: a lazily built planner without settings
            if saved or calls_of(exc):  # keep what the calls cost; with none, no empty task is left behind
                self._save_failed(task, exc, new=not saved)
            raise
        task.steps = assign_target_packages(result.steps, planning.current_package, ConfirmationGuard(self.profiles))
        self.store.save_plan(task, result.calls, new=not saved)
        return self.store.load_task(task.id)

    def _save_failed(self, task: AgentTask, exc: LlmError | ConfigInvalid, *, new: bool) -> None:
        """A plan that never came leaves a FAILED task holding its LLM calls: nothing half-written."""
        from starebrain.models import TaskStatus

        task.status = TaskStatus.FAILED
        task.status_reason = f"planning failed: {exc}"
        self.store.save_plan(task, calls_of(exc), new=new)
        exc.task_id = task.id
