"""The executor's collaborators it does not own, as protocols: the guard and the replanner.

The device is `starebrain.device.base.Device`, the store `starebrain.store.protocol.TaskStore`, the planner
`starebrain.llm.base.Planner`; `starebrain.engine.build_engine` is where the real ones are chosen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from starebrain.models import AgentStep, AgentTask, LlmCall

if TYPE_CHECKING:
    from starebrain.executor.step_runner import StepReport
    from starebrain.guard.concrete_action import ConcreteAction
    from starebrain.guard.decision import GuardDecision
    from starebrain.profiles import Profiles


class Guard(Protocol):
    """Decides whether the person must confirm a step: as planned, and as resolved at act time."""

    profiles: Profiles

    def check(self, step: AgentStep) -> GuardDecision: ...

    def check_actual(self, step: AgentStep, concrete: ConcreteAction) -> GuardDecision: ...


class StepReplanner(Protocol):
    """Revised steps for the rest of a task after `step` failed, and the LLM calls that took."""

    def replan(self, task: AgentTask, step: AgentStep,
               report: StepReport) -> tuple[list[AgentStep], list[LlmCall]]: ...
