"""What the LLM must answer, as pydantic models, their strict JSON schema, and checks beyond it.

The answer models mirror the LLM-facing part of `AgentStep` (no ids, statuses or results): the
schema sent as `response_format` and the validation of the reply come from the same classes.
"""

from __future__ import annotations

import copy
import json
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from starebrain.models import Action, AgentStep, Selector

# Keys OpenAI's strict mode rejects or that only add noise to the prompt.
_DROP_KEYS = ("title", "default", "discriminator")

M = TypeVar("M", bound=BaseModel)


class PlannedStep(BaseModel):
    """One step as the LLM writes it."""

    model_config = ConfigDict(extra="forbid")

    instruction: str
    action: Action
    target_package: str | None
    expect: Selector | None
    irreversible: bool


class PlanAnswer(BaseModel):
    """The reply to a plan or replan request."""

    model_config = ConfigDict(extra="forbid")

    steps: list[PlannedStep]
    explanation: str


class GroundAnswer(BaseModel):
    """The reply to a grounding request: one element on this screen, or null."""

    model_config = ConfigDict(extra="forbid")

    selector: Selector | None
    reason: str


class LocateAnswer(BaseModel):
    """The reply to a locate request: the element's centre in percent of the screenshot, or not found."""

    model_config = ConfigDict(extra="forbid")

    found: bool
    x_percent: float | None = Field(ge=0, le=100)
    y_percent: float | None = Field(ge=0, le=100)
    reason: str

    @model_validator(mode="after")
    def _point_when_found(self) -> LocateAnswer:
        if self.found and (self.x_percent is None or self.y_percent is None):
            raise ValueError("found=true needs x_percent and y_percent")
        return self

    @property
    def point(self) -> tuple[float, float] | None:
        """(x, y) in percent of the image, when found."""
        if not self.found or self.x_percent is None or self.y_percent is None:
            return None
        return self.x_percent, self.y_percent


class AnswerInvalid(ValueError):
    """A reply that does not parse, validate or fit the device; the message goes into the repair request."""


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema made acceptable to strict structured outputs."""
    schema: dict[str, Any] = _strictify(copy.deepcopy(model.model_json_schema()))
    return schema


def _strictify(node: Any) -> Any:
    # Strict mode wants every property required (optional ones are nullable), no extra keys, anyOf not oneOf.
    if isinstance(node, list):
        return [_strictify(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _strictify(v) for k, v in node.items() if k not in _DROP_KEYS}
    for named in ("properties", "$defs"):  # names of fields and definitions are not keywords: keep them all
        if isinstance(node.get(named), dict):
            out[named] = {k: _strictify(v) for k, v in node[named].items()}
    if "oneOf" in out:
        out["anyOf"] = out.pop("oneOf")
    if out.get("type") == "object" and "properties" in out:
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


def response_format_for(model: type[BaseModel]) -> dict[str, Any]:
    """`response_format` asking for strict json_schema output of `model`."""
    return {"type": "json_schema",
            "json_schema": {"name": model.__name__, "strict": True, "schema": strict_schema(model)}}


def parse_answer(model: type[M], content: str | None) -> M:
    """Parse and validate a reply; raise `AnswerInvalid` with a short, quotable reason."""
    if not content or not content.strip():
        raise AnswerInvalid("the reply was empty")
    try:
        data = json.loads(_strip_fence(content))
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise AnswerInvalid(f"the reply is not valid JSON: {exc.msg} at {where}") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise AnswerInvalid(_first_errors(exc)) from exc


def _strip_fence(content: str) -> str:
    # Models in JSON mode sometimes still wrap the object in a ``` fence.
    text = content.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    return text


def _first_errors(exc: ValidationError, limit: int = 3) -> str:
    parts = []
    for err in exc.errors()[:limit]:
        where = ".".join(str(p) for p in err["loc"]) or "(root)"
        parts.append(f"{where}: {err['msg']}")
    more = exc.error_count() - limit
    return "schema violation: " + "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def check_packages(answer: PlanAnswer, launchable: list[str]) -> None:
    """Every `open_app`, `stop_app`, `clear_state` (and `open_link` naming one) must name a package that exists on
    the device (skipped if we do not know them)."""
    if not launchable:
        return
    known = set(launchable)
    for i, step in enumerate(answer.steps):
        package = getattr(step.action, "package", None)  # open_app, open_link, stop_app, clear_state
        if package and package not in known:
            raise AnswerInvalid(
                f"steps.{i}.action.package: {package!r} is not installed on the device; "
                f"use one of: {', '.join(sorted(known)[:40])}")


def to_agent_steps(answer: PlanAnswer, start: int = 0) -> list[AgentStep]:
    """The engine's steps, indexed from `start` (the cursor, for a replan)."""
    return [
        AgentStep(index=start + i, instruction=s.instruction, action=s.action,
                  target_package=s.target_package, expect=s.expect, irreversible=s.irreversible)
        for i, s in enumerate(answer.steps)
    ]
