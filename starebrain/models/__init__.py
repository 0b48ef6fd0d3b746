"""The data model (docs/architecture.md), as pydantic models. SQLModel tables in `starebrain.store` mirror them."""

from __future__ import annotations

from starebrain.models.action import (
    Action,
    ClearState,
    LongPress,
    OpenApp,
    OpenLink,
    Press,
    ScrollTo,
    StopApp,
    Swipe,
    Tap,
    TypeText,
    WaitFor,
    action_selector,
    action_text,
)
from starebrain.models.context import AgentContext, AppSwitch, Confidence
from starebrain.models.selector import Selector, point_selector
from starebrain.models.task import (
    AgentStep,
    AgentTask,
    Attempt,
    AttemptOutcome,
    Confirmation,
    Decision,
    LlmCall,
    LlmPurpose,
    StepResult,
    StepStatus,
    TaskStatus,
    new_id,
    utcnow,
)

__all__ = [
    "Action", "AgentContext", "AgentStep", "AgentTask", "AppSwitch", "Attempt", "AttemptOutcome", "ClearState",
    "Confidence", "Confirmation", "Decision", "LlmCall", "LlmPurpose", "LongPress", "OpenApp", "OpenLink", "Press",
    "ScrollTo", "Selector", "StepResult", "StepStatus", "StopApp", "Swipe", "Tap", "TaskStatus", "TypeText", "WaitFor",
    "action_selector", "action_text", "point_selector", "new_id", "utcnow",
]
