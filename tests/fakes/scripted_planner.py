"""`ScriptedPlanner`: canned plans, groundings and replans for pure-logic engine tests (no network)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from starebrain.errors import LlmUnavailable
from starebrain.llm.base import (
    GroundResult,
    PlanningContext,
    PlanResult,
    ReplanRequest,
    attach_calls,
    renumber,
)
from starebrain.llm.tokens import estimate_tokens
from starebrain.models import AgentStep, LlmCall, LlmPurpose, Selector

# What a script item may be: the answer itself, a bare step list / selector, or an error to raise.
PlanReply = PlanResult | list[AgentStep] | BaseException
GroundReply = GroundResult | Selector | None | BaseException


@dataclass(frozen=True)
class ScriptedCall:
    """One call the engine made: its purpose and what it passed."""

    purpose: LlmPurpose
    payload: Any


class ScriptedPlanner:
    """Answers in order from three queues; records every call in `received` and `calls`."""

    def __init__(
        self,
        plans: list[PlanReply] | None = None,
        groundings: list[GroundReply] | None = None,
        replans: list[PlanReply] | None = None,
        *,
        model: str = "scripted",
    ) -> None:
        self.model = model
        self._plans: deque[PlanReply] = deque(plans or [])
        self._groundings: deque[GroundReply] = deque(groundings or [])
        self._replans: deque[PlanReply] = deque(replans or [])
        self.received: list[ScriptedCall] = []
        self.calls: list[LlmCall] = []

    def plan(self, instruction: str, context: PlanningContext) -> PlanResult:
        """Next scripted plan, indexed from 0."""
        call = self._record(LlmPurpose.PLAN, (instruction, context), instruction)
        return self._plan_result(self._next(self._plans, call), call, start=0)

    def replan(self, request: ReplanRequest) -> PlanResult:
        """Next scripted replan, indexed after the completed steps."""
        call = self._record(LlmPurpose.REPLAN, request, request.failure_reason)
        return self._plan_result(self._next(self._replans, call), call, start=len(request.completed_steps))

    def ground(self, step: AgentStep, screen_summary: str) -> GroundResult:
        """Next scripted grounding (a `Selector`, `None`, or a full `GroundResult`)."""
        call = self._record(LlmPurpose.GROUND, (step, screen_summary), screen_summary)
        answer = self._next(self._groundings, call)
        if isinstance(answer, GroundResult):
            return answer.model_copy(update={"calls": [call]})
        return GroundResult(selector=answer, reason="scripted", calls=[call])

    def count(self, purpose: LlmPurpose) -> int:
        """How many calls of this purpose were made."""
        return sum(1 for r in self.received if r.purpose == purpose)

    def _record(self, purpose: LlmPurpose, payload: Any, prompt_text: str) -> LlmCall:
        self.received.append(ScriptedCall(purpose, payload))
        call = LlmCall(purpose=purpose, model=self.model, prompt_tokens=estimate_tokens(prompt_text))
        self.calls.append(call)
        return call

    def _next(self, queue: deque[Any], call: LlmCall) -> Any:
        if not queue:
            call.outcome = "error: script exhausted"
            msg = f"ScriptedPlanner: no scripted {call.purpose.value} answer left"
            raise attach_calls(LlmUnavailable(msg), [call])
        answer = queue.popleft()
        if isinstance(answer, BaseException):
            call.outcome = f"error: {type(answer).__name__}"
            raise attach_calls(answer, [call])
        return answer

    @staticmethod
    def _plan_result(answer: PlanResult | list[AgentStep], call: LlmCall, *, start: int) -> PlanResult:
        if isinstance(answer, PlanResult):
            return answer.model_copy(update={"steps": renumber(answer.steps, start), "calls": [call]})
        return PlanResult(steps=renumber(answer, start), explanation="scripted", calls=[call])
