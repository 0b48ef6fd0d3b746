"""Versioned YAML flow files: an explicit step list, in the spirit of Maestro flows.

```yaml
format: starebrain-flow
version: 1
name: invoice-errand
instruction: Send the invoice to the client I just messaged, then mark the project as done
steps:
  - open_app: com.google.android.gm
  - tap: {text: Compose}
    instruction: Start a new mail          # optional; derived from the action otherwise
    expect: {resource_id: com.google.android.gm:id/to}
  - type: {selector: {resource_id: com.google.android.gm:id/to}, text: dana@whitfield.example}
  - tap: {content_desc: Send}
    irreversible: true
```

Each step has exactly one action key (`open_app`, `tap`, `long_press`, `type`, `press`, `swipe`,
`scroll_to`, `wait_for`). `target_package` defaults to the package of the last `open_app`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from starebrain.errors import FlowInvalid
from starebrain.models import Action, AgentStep, OpenApp, Selector, action_selector

FLOW_FORMAT = "starebrain-flow"
FLOW_VERSION = 1
ACTION_KEYS = ("open_app", "tap", "long_press", "type", "press", "swipe", "scroll_to", "wait_for")
STEP_KEYS = {"instruction", "expect", "irreversible", "target_package", *ACTION_KEYS}

_ACTION = TypeAdapter(Action)


class Flow(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    instruction: str
    steps: list[AgentStep]
    path: str = ""


def load_flow(path: Path) -> Flow:
    """Read and validate a flow file; any problem is one FlowInvalid line naming file and step."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FlowInvalid(f"{path}: cannot read flow file ({exc.strerror or exc})") from exc
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise FlowInvalid(f"{path}:{where} not valid YAML ({getattr(exc, 'problem', exc)})") from exc
    return parse_flow(doc, source=str(path))


def parse_flow(doc: Any, *, source: str = "<flow>") -> Flow:
    """Validate a flow document already loaded from YAML."""
    if not isinstance(doc, dict):
        raise FlowInvalid(f"{source}: a flow is a mapping with format, version and steps")
    _check_header(doc, source)
    raw_steps = doc.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise FlowInvalid(f"{source}: 'steps' must be a non-empty list")
    steps: list[AgentStep] = []
    package: str | None = None
    for i, raw in enumerate(raw_steps):
        step = _parse_step(raw, i, package, source)
        if isinstance(step.action, OpenApp):
            package = step.action.package
        steps.append(step)
    name = str(doc.get("name") or Path(source).stem)
    instruction = str(doc.get("instruction") or name)
    return Flow(name=name, instruction=instruction, steps=steps, path=source)


def _check_header(doc: dict[str, Any], source: str) -> None:
    if doc.get("format") != FLOW_FORMAT:
        raise FlowInvalid(f"{source}: 'format' must be '{FLOW_FORMAT}'")
    version = doc.get("version")
    if version != FLOW_VERSION:
        raise FlowInvalid(f"{source}: flow version {version!r} is not supported (this StareBrain reads "
                          f"version {FLOW_VERSION})")


def _parse_step(raw: Any, i: int, package: str | None, source: str) -> AgentStep:
    where = f"{source}: step {i + 1}"
    if not isinstance(raw, dict):
        raise FlowInvalid(f"{where}: a step is a mapping with one action key ({', '.join(ACTION_KEYS)})")
    unknown = sorted(set(raw) - STEP_KEYS)
    if unknown:
        raise FlowInvalid(f"{where}: unknown key {unknown[0]!r}")
    keys = [k for k in ACTION_KEYS if k in raw]
    if len(keys) != 1:
        raise FlowInvalid(f"{where}: needs exactly one action key of {', '.join(ACTION_KEYS)}")
    try:
        action = _ACTION.validate_python(_action_dict(keys[0], raw[keys[0]]))
        expect = Selector.model_validate(raw["expect"]) if raw.get("expect") is not None else None
        if isinstance(action, OpenApp):
            package = action.package
        return AgentStep(
            index=i,
            instruction=str(raw.get("instruction") or describe_action(action)),
            action=action,
            target_package=raw.get("target_package") or package,
            expect=expect,
            irreversible=bool(raw.get("irreversible", False)),
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"] if p != keys[0])
        raise FlowInvalid(f"{where} ({keys[0]}): {loc + ': ' if loc else ''}{first['msg']}") from exc


def _action_dict(kind: str, value: Any) -> dict[str, Any]:
    """Short forms: `open_app: PKG`, `press: back`, `swipe: up`, `tap: {selector fields}`."""
    if kind == "open_app" and isinstance(value, str):
        return {"kind": kind, "package": value}
    if kind == "press" and isinstance(value, str):
        return {"kind": kind, "key": value}
    if kind == "swipe" and isinstance(value, str):
        return {"kind": kind, "direction": value}
    if kind in ("tap", "long_press") and isinstance(value, dict) and "selector" not in value:
        return {"kind": kind, "selector": value}
    if isinstance(value, dict):
        return {"kind": kind, **value}
    return {"kind": kind, "value": value}


def describe_action(action: Action) -> str:
    """Human words for an action, used when a flow step gives no instruction."""
    sel = action_selector(action)
    target = sel.describe() if sel else ""
    match action.kind:
        case "open_app":
            return f"Open {action.package}"  # type: ignore[union-attr]
        case "type":
            return f"Type into {target or 'the focused field'}"
        case "press":
            return f"Press {action.key}"  # type: ignore[union-attr]
        case "swipe":
            return f"Swipe {action.direction}"  # type: ignore[union-attr]
        case _:
            return f"{action.kind.replace('_', ' ').capitalize()} {target}".strip()
