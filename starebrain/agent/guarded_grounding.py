"""`GuardedGrounding`: a `Planner` wrapper that refuses groundings that would change what a risky step touches.

Grounding swaps a step's selector for one the LLM picked on the current screen, and a screen can carry
text that talks the LLM into picking "Send" or "Confirm transfer". A pick riskier than the planned step
is dropped, and a step the guard flags (it needs the person, so it may already be approved) is never
re-targeted by grounding at all: the step fails and is replanned, and the new steps meet the guard. The
step runner's act-time guard judges whatever is finally touched in any case, and an approval only ever
covers the concrete element the person saw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starebrain.errors import LlmUnavailable
from starebrain.llm.base import GroundResult, LocateResult, Locator, Planner, PlanningContext, PlanResult, ReplanRequest
from starebrain.models import AgentStep, Selector

if TYPE_CHECKING:
    from starebrain.executor.seams import Guard


class GuardedGrounding:
    """Passes plan/replan through; vets each grounding with the `ConfirmationGuard`."""

    def __init__(self, planner: Planner, guard: Guard) -> None:
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

    def locate(self, step: AgentStep, screenshot_jpeg: bytes, screen_facts: str) -> LocateResult:
        """The wrapped planner's point on a screenshot, unless the step needs the person (never re-targeted).

        The point becomes a point selector that the act-time guard judges by what a tap there reaches: a
        blind target (a canvas, an unlabelled element) in an app that can pay, send, delete or install goes
        to the person."""
        planned = self.guard.check(step)
        if planned.needs_confirmation:
            return LocateResult(reason=f"grounding refused: the step needs the person, so its target is not "
                                       f"re-picked ({planned.reason})")
        if not isinstance(self.planner, Locator):
            raise LlmUnavailable("this planner cannot read screenshots; set vision_model (STAREBRAIN_VISION_MODEL)")
        return self.planner.locate(step, screenshot_jpeg, screen_facts)

    def refusal(self, step: AgentStep, selector: Selector) -> str:
        """Why acting on `selector` instead of the step's own target is refused ("" when it is not)."""
        planned = self.guard.check(step)
        if planned.needs_confirmation:
            return f"grounding refused: the step needs the person, so its target is not re-picked ({planned.reason})"
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

