"""The `Planner` boundary: what the engine may ask of an LLM, and what it gets back.

Implementations: `OpenAIPlanner` (any OpenAI-compatible endpoint, through the real openai client)
and `ScriptedPlanner` (`tests/fakes/scripted_planner.py`: pure-logic engine tests, no network).
This module must stay free of openai so that importing `starebrain.llm` (e.g. on the resume path) is cheap.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from starebrain.models import AgentContext, AgentStep, AppSwitch, Confidence, LlmCall, Selector


class PlanningContext(BaseModel):
    """Instruction-independent facts about the phone and the person, handed to `plan`.

    `screen_summary`, `entities` and `notifications` come from the screen: prompts carry them
    only as delimited, untrusted data. The caller keeps password fields out of `screen_summary`.
    """

    model_config = ConfigDict(frozen=True)

    current_package: str = ""
    current_activity: str = ""
    recent_switches: list[AppSwitch] = Field(default_factory=list)
    screen_summary: str = ""
    launchable_packages: list[str] = Field(default_factory=list)
    entities: dict[str, str] = Field(default_factory=dict)  # e.g. last_conversation_partner
    notifications: list[str] = Field(default_factory=list)
    confidence: Confidence = Confidence.HIGH

    @classmethod
    def from_agent_context(
        cls, ctx: AgentContext, *, screen_summary: str = "", launchable_packages: list[str] | None = None
    ) -> PlanningContext:
        """Build from the engine's `AgentContext` plus what only the device knows."""
        return cls(
            current_package=ctx.current_package,
            current_activity=ctx.current_activity,
            recent_switches=list(ctx.recent_switches),
            screen_summary=screen_summary,
            launchable_packages=list(launchable_packages or []),
            entities=dict(ctx.entities),
            confidence=ctx.confidence,
        )


class ReplanRequest(BaseModel):
    """Ask for the remaining steps only, given what already happened."""

    model_config = ConfigDict(frozen=True)

    original_instruction: str
    completed_steps: list[AgentStep] = Field(default_factory=list)  # never to be repeated
    failed_step: AgentStep
    failure_reason: str
    screen_summary: str = ""  # already capped by the caller
    remaining_step_count: int = Field(default=1, ge=0)  # a soft target, not a limit
    launchable_packages: list[str] = Field(default_factory=list)  # revised steps may open only these
    current_package: str = ""


class _CallTotals(BaseModel):
    """The LLM calls an answer took, with their token sums."""

    calls: list[LlmCall] = Field(default_factory=list)

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.calls)

    @property
    def completion_tokens(self) -> int:
        return sum(c.completion_tokens for c in self.calls)


class PlanResult(_CallTotals):
    """Steps from `plan` or `replan`, and every LLM call it took to get them."""

    steps: list[AgentStep]
    explanation: str = ""


class GroundResult(_CallTotals):
    """One element picked on the current screen for a step, or none (`selector is None`)."""

    selector: Selector | None = None
    reason: str = ""


class LocateResult(_CallTotals):
    """Where on a screenshot the step's element is, in percent of the image (x, y), or nowhere (`None`)."""

    point: tuple[float, float] | None = None
    reason: str = ""


@runtime_checkable
class Locator(Protocol):
    """Finds a step's element on a screenshot (a vision-capable model), for screens without a usable hierarchy.
    Raises `LlmUnavailable` with the setting to change when the model cannot read images."""

    def locate(self, step: AgentStep, screenshot_jpeg: bytes, screen_facts: str) -> LocateResult:
        """The point of the element `step` should act on, on this JPEG screenshot, or none."""
        ...


@runtime_checkable
class Planner(Protocol):
    """Turns words into steps. On failure raises `LlmTimeout`, `LlmUnavailable` or `PlanInvalid`;
    the raised error carries the calls made so far as `llm_calls` (see `calls_of`)."""

    def plan(self, instruction: str, context: PlanningContext) -> PlanResult:
        """The full step list for an instruction."""
        ...

    def ground(self, step: AgentStep, screen_summary: str) -> GroundResult:
        """Pick the one element on this screen that `step` should act on, or none."""
        ...

    def replan(self, request: ReplanRequest) -> PlanResult:
        """Revised steps for the remainder only (completed steps are kept by the caller)."""
        ...


def attach_calls(exc: BaseException, calls: list[LlmCall]) -> BaseException:
    """Let a raised error carry the LLM calls already made, so they are persisted and counted."""
    exc.llm_calls = list(calls)  # type: ignore[attr-defined]
    return exc


def calls_of(exc: BaseException) -> list[LlmCall]:
    """The LLM calls a planner error carries (empty when it carries none)."""
    return list(getattr(exc, "llm_calls", []))


def renumber(steps: list[AgentStep], start: int = 0) -> list[AgentStep]:
    """Copies of `steps` with `index` counting from `start`."""
    return [s.model_copy(update={"index": start + i}, deep=True) for i, s in enumerate(steps)]
