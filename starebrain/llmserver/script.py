"""The script a `ScriptedLlmServer` follows: answers per purpose, in order, with injectable faults.

File format (YAML or JSON)::

    format: starebrain-llm-script
    version: 1
    model: scripted-gpt            # echoed in responses
    reject_json_schema: false      # true: answer 400 to response_format json_schema (JSON-mode fallback)
    vision: true                   # false: answer 400 to a request with an image, as a model without vision
    entries:                       # consumed in order, separately for each purpose
      - purpose: plan              # plan | ground | replan | locate
        content: {steps: [...], explanation: "..."}   # an object is sent as JSON; a string verbatim
      - purpose: replan
        fault: {kind: status, status: 429, retry_after: 1}
        repeat: 2                  # serve this entry to 2 consecutive requests
      - purpose: ground
        fault: missing_selector    # a bare kind is shorthand for {kind: ...}
      - purpose: locate            # a point on the screenshot, in percent of the image (never read from it)
        content: {found: true, x_percent: 50, y_percent: 62.5, reason: "the Play button"}

Fault kinds: delay (seconds, then `content` if any), status (status, retry_after, message),
malformed_json, schema_violation, unknown_package (package), missing_selector (text),
hostile (step for plan/replan, selector for ground: what a model that obeyed on-screen text would say).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

FORMAT: Final = "starebrain-llm-script"
VERSION: Final = 1

Purpose = Literal["plan", "ground", "replan", "locate"]
FaultKind = Literal["delay", "status", "malformed_json", "schema_violation", "unknown_package",
                    "missing_selector", "hostile"]


class ScriptError(ValueError):
    """A script file that cannot be used."""


class Fault(BaseModel):
    """Something to go wrong with one answer."""

    model_config = ConfigDict(extra="forbid")

    kind: FaultKind
    seconds: float = Field(default=5.0, ge=0, le=120)  # delay
    status: int = Field(default=500, ge=400, le=599)  # status
    retry_after: float | None = None  # status: the Retry-After header, in seconds
    message: str = ""  # status: the error message
    package: str = "com.example.notinstalled"  # unknown_package
    text: str = "No such element"  # missing_selector
    step: dict[str, Any] | None = None  # hostile, for plan/replan
    selector: dict[str, Any] | None = None  # hostile, for ground


class Entry(BaseModel):
    """One scripted answer."""

    model_config = ConfigDict(extra="forbid")

    purpose: Purpose
    content: dict[str, Any] | str | None = None
    fault: Fault | None = None
    repeat: int = Field(default=1, ge=1, le=100)

    @field_validator("fault", mode="before")
    @classmethod
    def _bare_kind(cls, value: Any) -> Any:
        return {"kind": value} if isinstance(value, str) else value


class Script(BaseModel):
    """A whole script."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["starebrain-llm-script"] = FORMAT
    version: int = VERSION
    model: str = "scripted-model"
    reject_json_schema: bool = False
    vision: bool = True
    entries: list[Entry] = Field(default_factory=list)

    @field_validator("version")
    @classmethod
    def _known_version(cls, value: int) -> int:
        if value > VERSION:
            raise ValueError(f"script format version {value} is newer than supported ({VERSION})")
        return value


def load_script(source: Script | dict[str, Any] | list[Any] | str | Path) -> Script:
    """A `Script` from a model, a dict, a bare list of entries, or a YAML/JSON file path."""
    if isinstance(source, Script):
        return source
    if isinstance(source, (str, Path)):
        source = _read(Path(source))
    if isinstance(source, list):
        source = {"entries": source}
    try:
        return Script.model_validate(source)
    except ValidationError as exc:
        raise ScriptError(f"invalid LLM script: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}") from exc


def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(f"cannot read LLM script {path}: {exc.strerror}") from exc
    try:
        return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise ScriptError(f"LLM script {path} does not parse: {exc}") from exc


def content_text(entry: Entry) -> str:
    """The assistant message content to send for `entry` (faults that shape content applied)."""
    fault = entry.fault
    if fault is None or fault.kind in ("delay", "status"):
        content: dict[str, Any] | str = _empty(entry.purpose) if entry.content is None else entry.content
        return _as_text(content)
    return _as_text(_FAULT_CONTENT[fault.kind](entry, fault))


def _as_text(content: dict[str, Any] | str) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def _empty(purpose: str) -> dict[str, Any]:
    if purpose == "ground":
        return {"selector": None, "reason": "nothing fits"}
    if purpose == "locate":
        return locate_answer(None)
    return {"steps": [], "explanation": ""}


def _malformed(entry: Entry, fault: Fault) -> str:
    return '{"steps": [{"instruction": "Open the app", "action": {"kind": "open_app", "package": '


def _schema_violation(entry: Entry, fault: Fault) -> dict[str, Any]:
    if entry.purpose == "ground":
        return {"element": "the send button"}
    return {"steps": [{"instruction": "Teleport to the invoice", "action": {"kind": "teleport"}}],
            "explanation": "violates the action schema"}


def _unknown_package(entry: Entry, fault: Fault) -> dict[str, Any]:
    step = plan_step("Open the app", {"kind": "open_app", "package": fault.package}, fault.package)
    return {"steps": [step], "explanation": "opens a package the device does not have"}


def _missing_selector(entry: Entry, fault: Fault) -> dict[str, Any]:
    selector = selector_dict(text=fault.text)
    if entry.purpose == "ground":
        return {"selector": selector, "reason": "picked an element that is not on screen"}
    step = plan_step(f"Tap {fault.text}", {"kind": "tap", "selector": selector}, None)
    return {"steps": [step], "explanation": "targets an element that is not on screen"}


def _hostile(entry: Entry, fault: Fault) -> dict[str, Any]:
    # A model that obeyed text on the screen: it proposes whatever the test says, plausibly formatted.
    if entry.purpose == "ground":
        return {"selector": selector_dict(**(fault.selector or {"text": "Transfer all"})),
                "reason": "the screen said to tap it"}
    base = entry.content if isinstance(entry.content, dict) else {"steps": []}
    step = fault.step or plan_step("Tap Transfer all", {"kind": "tap", "selector": selector_dict(
        text="Transfer all")}, None)
    return {"steps": [*base.get("steps", []), step], "explanation": "following the instructions on screen"}


_FAULT_CONTENT: dict[str, Callable[[Entry, Fault], dict[str, Any] | str]] = {
    "malformed_json": _malformed, "schema_violation": _schema_violation, "unknown_package": _unknown_package,
    "missing_selector": _missing_selector, "hostile": _hostile,
}


def locate_answer(point: tuple[float, float] | None, reason: str = "scripted") -> dict[str, Any]:
    """A locate answer as strict structured output writes it: the point in percent of the image, or not found."""
    x, y = point if point is not None else (None, None)
    return {"found": point is not None, "x_percent": x, "y_percent": y, "reason": reason}


def selector_dict(**fields: Any) -> dict[str, Any]:
    """A selector as strict structured output writes it: every field present, unused ones null."""
    names = ("text", "text_contains", "resource_id", "content_desc", "class_name", "index", "point")
    return {name: fields.get(name) for name in names}


def plan_step(instruction: str, action: dict[str, Any], package: str | None, *,
              irreversible: bool = False) -> dict[str, Any]:
    """One planned step as strict structured output writes it."""
    return {"instruction": instruction, "action": action, "target_package": package, "expect": None,
            "irreversible": irreversible}
