"""`GuardedGrounding`: a `Planner` wrapper that refuses a grounded element riskier than the planned one.

The guard checks a step before it runs, with the step's own selector. Grounding swaps that selector for
one the LLM picked on the current screen, and a screen can carry text that talks the LLM into picking
"Send" or "Confirm transfer". Such a pick is dropped (the step fails and is replanned, and the new steps
meet the guard before they run); a pick the guard finds no riskier than the plan is used.
"""

from __future__ import annotations

from typing import Any

from starebrain.models import AgentStep, Selector
from starebrain.planner.base import GroundResult, Planner, PlanningContext, PlanResult, ReplanRequest


class GuardedGrounding:
    """Passes plan/replan through; vets each grounding with the `ConfirmationGuard`."""

    def __init__(self, planner: Planner, guard: Any) -> None:
        self.planner = planner
        self.guard = guard

    def plan(self, instruction: str, context: PlanningContext) -> PlanResult:
        """The wrapped planner's plan."""
        return self.planner.plan(instruction, context)

    def replan(self, request: ReplanRequest) -> PlanResult:
        """The wrapped planner's replan."""
        return self.planner.replan(request)

    def ground(self, step: AgentStep, screen_summary: str) -> GroundResult:
        """The wrapped planner's pick, unless acting on it needs a confirmation the planned step did not."""
        result = self.planner.ground(step, screen_summary)
        if result.selector is None:
            return result
        why = self.refusal(step, result.selector)
        if why:
            return GroundResult(selector=None, reason=why, calls=result.calls)
        return result

    def refusal(self, step: AgentStep, selector: Selector) -> str:
        """Why acting on `selector` instead of the step's own target is refused ("" when it is not)."""
        planned = self.guard.check(step)
        grounded = self.guard.check(with_selector(step, selector))
        if grounded.needs_confirmation and grounded.risk > planned.risk:
            return f"grounded element refused: {grounded.reason}"
        return ""

    def close(self) -> None:
        """Close the wrapped planner, if it can be closed."""
        close = getattr(self.planner, "close", None)
        if close is not None:
            close()


def with_selector(step: AgentStep, selector: Selector) -> AgentStep:
    """`step` acting on `selector` instead of its own target."""
    action = step.action.model_copy(update={"selector": selector})
    return step.model_copy(update={"action": action})

