"""`LazyPlanner`: a `Planner` that builds the real one (and imports openai) only on its first call.

`resume`, `approve` and `retry` of a do-task must be able to ground and replan, yet most resumed
tasks never ask the LLM anything: building the openai client up front would cost every resume its
import time for nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from starebrain.errors import LlmUnavailable
from starebrain.llm.base import GroundResult, LocateResult, Locator, Planner, PlanningContext, PlanResult, ReplanRequest
from starebrain.models import AgentStep

if TYPE_CHECKING:
    from starebrain.config import Settings
    from starebrain.redaction import Scrubber


def _build_from(settings: Settings | None, secrets: Scrubber | None) -> Callable[[], Planner]:
    def build() -> Planner:
        from starebrain.llm import build_planner

        return build_planner(settings, secrets=secrets)

    return build


class LazyPlanner:
    """Satisfies `Planner`; `build_planner(settings, secrets=secrets)` (or `factory`) runs once, on first use."""

    def __init__(self, settings: Settings | None = None, *, secrets: Scrubber | None = None,
                 factory: Callable[[], Planner] | None = None) -> None:
        self._factory = factory or _build_from(settings, secrets)
        self._planner: Planner | None = None
        self._lock = threading.Lock()

    @property
    def built(self) -> bool:
        """Whether the real planner exists yet (i.e. an LLM call was needed)."""
        return self._planner is not None

    def real(self) -> Planner:
        """The real planner, built now if this is the first use."""
        with self._lock:
            if self._planner is None:
                self._planner = self._factory()
            return self._planner

    def plan(self, instruction: str, context: PlanningContext) -> PlanResult:
        """The full step list for an instruction."""
        return self.real().plan(instruction, context)

    def ground(self, step: AgentStep, screen_summary: str) -> GroundResult:
        """Pick the one element on this screen that `step` should act on, or none."""
        return self.real().ground(step, screen_summary)

    def replan(self, request: ReplanRequest) -> PlanResult:
        """Revised steps for the remainder only."""
        return self.real().replan(request)

    def locate(self, step: AgentStep, screenshot_jpeg: bytes, screen_facts: str) -> LocateResult:
        """The real planner's point on a screenshot (a screen without a usable hierarchy)."""
        real = self.real()
        if not isinstance(real, Locator):
            raise LlmUnavailable("this planner cannot read screenshots; set vision_model (STAREBRAIN_VISION_MODEL)")
        return real.locate(step, screenshot_jpeg, screen_facts)

    def close(self) -> None:
        """Close the real planner's connections, if it was ever built."""
        close = getattr(self._planner, "close", None)
        if close is not None:
            close()
