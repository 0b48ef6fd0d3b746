"""Builds a ReplanRequest from a failed step and asks the planner for the remainder."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from starebrain.agent.step_targets import assign_target_packages
from starebrain.llm.base import Planner, ReplanRequest, renumber
from starebrain.models import AgentStep, AgentTask, LlmCall, StepStatus, action_text

if TYPE_CHECKING:
    from starebrain.executor.seams import Guard
    from starebrain.executor.step_runner import StepReport
    from starebrain.snapshot import ScreenSnapshot

SUMMARY_ITEMS = 16  # the Gmail inbox has 13 elements: at 12 its Compose button, the one a replan needs, fell off

Packages = list[str] | Callable[[], list[str]]


class Replanner:
    """The executor's bridge to `Planner.replan`: what to send, and what comes back.

    `launchable_packages` is a list, or a callable asked only when a replan happens (on resume
    the device is asked for its packages only if a step actually fails).
    """

    def __init__(self, planner: Planner, launchable_packages: Packages | None = None, *,
                 guard: Guard | None = None) -> None:
        self.planner = planner
        self._packages = launchable_packages
        self._known: list[str] | None = None
        self._guard = guard

    @property
    def guard(self) -> Guard:
        """The `ConfirmationGuard` that decides which app a revised step acts in (built when first needed)."""
        if self._guard is None:
            from starebrain.guard import ConfirmationGuard
            from starebrain.profiles import load_profiles

            self._guard = ConfirmationGuard(load_profiles())
        return self._guard

    @property
    def launchable_packages(self) -> list[str]:
        """What a revised plan may open; a callable source is asked once."""
        if self._known is None:
            source = self._packages
            self._known = sorted(source()) if callable(source) else list(source or [])
        return self._known

    def request_for(self, task: AgentTask, step: AgentStep, reason: str,
                    screen: ScreenSnapshot | None) -> ReplanRequest:
        """Completed steps (never repeated), the failed one, why, and a capped relevant screen summary."""
        done = [s for s in task.steps[: task.cursor] if s.status in (StepStatus.COMPLETED, StepStatus.SKIPPED)]
        relevant = f"{step.instruction} {action_text(step.action)}"
        summary = screen.summary(max_items=SUMMARY_ITEMS, relevant_to=relevant) if screen is not None else ""
        return ReplanRequest(
            original_instruction=task.instruction,
            completed_steps=done,
            failed_step=step,
            failure_reason=reason,
            screen_summary=summary,
            remaining_step_count=max(1, len(task.steps) - task.cursor),
            launchable_packages=self.launchable_packages,
            current_package=getattr(screen, "foreground_package", "") or "",
        )

    def replan(self, task: AgentTask, step: AgentStep, report: StepReport) -> tuple[list[AgentStep], list[LlmCall]]:
        """Revised steps numbered from the cursor, and the LLM calls made (also on failure)."""
        request = self.request_for(task, step, report.message, report.screen)
        result = self.planner.replan(request)
        steps = assign_target_packages(result.steps, request.current_package, self.guard)
        return renumber(steps, start=task.cursor), list(result.calls)
