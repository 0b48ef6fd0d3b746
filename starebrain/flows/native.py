"""StareBrain's own flow format (`format: starebrain-flow`, versions 1 and 2) compiled into a program.

Version 1 is a list of steps with one action key each. Version 2 adds, per step, `label`, `optional` and
`when`, and the block keys `run_flow`, `repeat`, `retry`, `assert_visible`, `assert_not_visible`
(see docs/flows.md for the full grammar).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from starebrain.errors import FlowInvalid
from starebrain.flows.program import Check, Cond, Do, Node, RepeatWhile, Retry, Target, When
from starebrain.flows.text_pattern import TextPattern, is_literal
from starebrain.flows.variables import env_block, layered, substitute
from starebrain.models import Action, AgentStep, OpenApp, Selector, WaitFor, action_selector

ACTION_KEYS = ("open_app", "open_link", "stop_app", "clear_state", "tap", "long_press", "type", "press", "swipe",
               "scroll_to", "wait_for")
STEP_KEYS = {"instruction", "expect", "irreversible", "target_package", *ACTION_KEYS}
V2_STEP_KEYS = STEP_KEYS | {"label", "optional", "when"}
BLOCK_KEYS = ("run_flow", "repeat", "retry", "assert_visible", "assert_not_visible", "take_screenshot",
              "wait_until_settled")
MAX_WHILE = 50  # a `repeat: while` without `max` stops after this many turns
DEFAULT_ASSERT_S = 5.0

_ACTION = TypeAdapter(Action)


@dataclass(frozen=True)
class Scope:
    """What a step list is compiled in: its file, variables, the app last opened and the sub-flow chain."""

    source: str
    env: dict[str, str]
    cli_env: dict[str, str]
    version: int
    package: str | None = None
    stack: tuple[str, ...] = ()

    @property
    def folder(self) -> Path:
        return Path(self.source).parent


def compile_steps(raw_steps: Any, scope: Scope, where: str, load: Callable[..., Any]) -> tuple[list[Node], Scope]:
    """Compile a list of raw steps; returns the nodes and the scope after them (last app opened)."""
    if not isinstance(raw_steps, list) or not raw_steps:
        raise FlowInvalid(f"{where}: 'steps' must be a non-empty list")
    nodes: list[Node] = []
    for i, raw in enumerate(raw_steps):
        here = f"{where} step {i + 1}" if where != scope.source else f"{scope.source}: step {i + 1}"
        new, scope = _compile_one(raw, scope, here, load)
        nodes += new
    return nodes, scope


def _compile_one(raw: Any, scope: Scope, where: str, load: Callable[..., Any]) -> tuple[list[Node], Scope]:
    if not isinstance(raw, dict):
        raise FlowInvalid(f"{where}: a step is a mapping with one action key ({', '.join(ACTION_KEYS)})")
    allowed = STEP_KEYS if scope.version == 1 else V2_STEP_KEYS | set(BLOCK_KEYS)
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise FlowInvalid(f"{where}: unknown key {unknown[0]!r}")
    if scope.version > 1:  # nested step lists are substituted when compiled (a sub-flow has its own env)
        raw = {k: _substitute_head(v, scope.env, where) if k in BLOCK_KEYS else substitute(v, scope.env, where)
               for k, v in raw.items()}
    keys = [k for k in (*ACTION_KEYS, *BLOCK_KEYS) if k in raw]
    if len(keys) != 1:
        raise FlowInvalid(f"{where}: needs exactly one action key of {', '.join(ACTION_KEYS)}"
                          + (f" or block key of {', '.join(BLOCK_KEYS)}" if scope.version > 1 else ""))
    key = keys[0]
    label = str(raw.get("label") or "")
    optional = bool(raw.get("optional", False))
    if key in ACTION_KEYS:
        nodes: list[Node] = [_action_node(key, raw, scope, where, optional)]
        if isinstance(nodes[0], Do) and isinstance(nodes[0].step.action, OpenApp):
            scope = replace(scope, package=nodes[0].step.action.package)
    else:
        nodes, scope = _block(key, raw[key], raw, scope, where, load)
        if optional:
            nodes = [_optional(n) for n in nodes]
    return _when(raw.get("when"), nodes, scope, where, label), scope


def _action_node(key: str, raw: dict[str, Any], scope: Scope, where: str, optional: bool) -> Node:
    """The node of one action step; an element named by a text regex is found on the screen when it runs."""
    value, pattern = _pattern_in(key, raw[key], where)
    if "expect" in raw:
        expect = _target(raw["expect"], f"{where} (expect)") if raw["expect"] is not None else None
        # An expectation by regex cannot be handed to the executor; the flow's next assertion checks it.
        raw = {**raw, "expect": expect.model_dump(exclude_none=True) if isinstance(expect, Selector) else None}
    if pattern is None:
        return Do(make_step(key, value, raw, scope, where), optional=optional)
    if key == "wait_for":
        timeout = float(value.get("timeout_s", 10.0))
        return Check(Cond(visible=pattern), timeout, str(raw.get("label") or f"Wait for {pattern.describe()}"),
                     optional=optional)
    step = make_step(key, value, raw, scope, where)
    if not (raw.get("label") or raw.get("instruction")):
        words = describe_action(step.action).replace(pattern.placeholder().describe(), pattern.describe())
        step = step.model_copy(update={"instruction": words})
    return Do(step, optional=optional, pattern=pattern)


def _pattern_in(kind: str, value: Any, where: str) -> tuple[Any, TextPattern | None]:
    """(the action's value with a plain selector, the text regex its selector gave or None)."""
    if not isinstance(value, dict):
        return value, None
    nested = "selector" in value or kind not in ("tap", "long_press")
    fields = value.get("selector") if nested else value
    if not isinstance(fields, dict) or "text_regex" not in fields:
        return value, None
    found = _target(fields, f"{where} ({kind})")
    if isinstance(found, TextPattern) and kind == "scroll_to":
        raise FlowInvalid(f"{where} (scroll_to): a text regex cannot be scrolled to (the element is not on the "
                          f"screen yet); give its literal text or id")
    plain = (found.placeholder() if isinstance(found, TextPattern) else found).model_dump(exclude_none=True)
    pattern = found if isinstance(found, TextPattern) else None
    return ({**value, "selector": plain} if nested else plain), pattern


def make_step(kind: str, value: Any, raw: dict[str, Any], scope: Scope, where: str) -> AgentStep:
    """One concrete AgentStep from an action key, its value and the step's other keys."""
    try:
        action = _ACTION.validate_python(_action_dict(kind, value))
        expect = Selector.model_validate(raw["expect"]) if raw.get("expect") is not None else None
        package = getattr(action, "package", None) or scope.package  # the app an app-level action names
        words = raw.get("label") or raw.get("instruction") or describe_action(action)
        return AgentStep(instruction=str(words), action=action, target_package=raw.get("target_package") or package,
                         expect=expect, irreversible=bool(raw.get("irreversible", False)))
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"] if p != kind)
        raise FlowInvalid(f"{where} ({kind}): {loc + ': ' if loc else ''}{first['msg']}") from exc


def _substitute_head(value: Any, env: dict[str, str], where: str) -> Any:
    if isinstance(value, dict):
        return {k: v if k == "steps" else substitute(v, env, where) for k, v in value.items()}
    return substitute(value, env, where)


def _action_dict(kind: str, value: Any) -> dict[str, Any]:
    """Short forms: `open_app: PKG`, `press: back`, `swipe: up`, `tap: {selector fields}`."""
    if kind in ("open_app", "stop_app", "clear_state") and isinstance(value, str):
        return {"kind": kind, "package": value}
    if kind == "open_link" and isinstance(value, str):
        return {"kind": kind, "url": value}
    if kind == "press" and isinstance(value, str):
        return {"kind": kind, "key": value}
    if kind == "swipe" and isinstance(value, str):
        return {"kind": kind, "direction": value}
    if kind in ("tap", "long_press") and isinstance(value, dict) and "selector" not in value:
        return {"kind": kind, "selector": value}
    if isinstance(value, dict):
        return {"kind": kind, **value}
    return {"kind": kind, "value": value}


def _block(key: str, value: Any, raw: dict[str, Any], scope: Scope, where: str,
           load: Callable[..., Any]) -> tuple[list[Node], Scope]:
    label = str(raw.get("label") or "")
    if key == "run_flow":
        return _run_flow(value, scope, where, load)
    if key == "take_screenshot":
        return [("snap", str(value or "screenshot"))], scope  # type: ignore[list-item]
    if key == "wait_until_settled":
        timeout = value.get("timeout_s", 5.0) if isinstance(value, dict) else 5.0
        return [("settle", float(timeout))], scope  # type: ignore[list-item]
    if key in ("assert_visible", "assert_not_visible"):
        sel, timeout = _assert_target(value, where)
        if key == "assert_visible" and isinstance(sel, TextPattern):
            return [Check(Cond(visible=sel), timeout, label or f"Assert {sel.describe()} is visible")], scope
        if key == "assert_visible" and isinstance(sel, Selector):
            step = AgentStep(instruction=label or f"Assert {sel.describe()} is visible",
                             action=WaitFor(selector=sel, timeout_s=timeout), target_package=scope.package)
            return [Do(step)], scope
        return [Check(Cond(not_visible=sel), timeout, label or f"Assert {sel.describe()} is not visible")], scope
    if not isinstance(value, dict):
        raise FlowInvalid(f"{where} ({key}): expected a mapping with steps")
    body, scope = compile_steps(value.get("steps"), scope, f"{where} ({key})", load)
    if key == "retry":
        return [Retry(tuple(body), _bounded(value.get("max", 1), 0, 10, where, "retry max"), label)], scope
    if "while" in value:
        cond = parse_cond(value["while"], f"{where} (repeat while)")
        limit = _bounded(value.get("max", value.get("times", MAX_WHILE)), 1, 1000, where, "repeat max")
        return [RepeatWhile(cond, tuple(body), limit, label or f"Repeat while {cond.describe()}")], scope
    times = _bounded(value.get("times"), 0, 1000, where, "repeat times")
    return [n for _ in range(times) for n in body], scope


def _run_flow(value: Any, scope: Scope, where: str, load: Callable[..., Any]) -> tuple[list[Node], Scope]:
    spec = {"file": value} if isinstance(value, str) else value
    params = env_block(spec.get("params", spec.get("env")) if isinstance(spec, dict) else None,
                       f"{where} (run_flow)")
    if isinstance(spec, dict) and "steps" in spec and "file" not in spec:  # inline commands
        inner = replace(scope, env=layered(scope.env, params, scope.cli_env))
        body, inner = compile_steps(spec["steps"], inner, f"{where} (run_flow)", load)
        return body, replace(scope, package=inner.package)
    if not isinstance(spec, dict) or not isinstance(spec.get("file"), str):
        raise FlowInvalid(f"{where} (run_flow): give the sub-flow's file (or inline steps)")
    path = (scope.folder / spec["file"]).resolve()
    if not path.is_file():
        raise FlowInvalid(f"{where} (run_flow): cannot read flow file {spec['file']} (no such file: {path})")
    if str(path) in scope.stack:
        raise FlowInvalid(f"{where} (run_flow): {spec['file']} runs itself (a sub-flow cycle)")
    # A sub-flow sees its caller's variables; the call's own parameters win over them.
    sub = load(path, params=layered(scope.env, params), cli_env=scope.cli_env, stack=(*scope.stack, str(path)),
               package=scope.package)
    return list(sub.program), replace(scope, package=sub.last_package or scope.package)


def _assert_target(value: Any, where: str) -> tuple[Target, float]:
    if isinstance(value, str):
        value = {"text": value}
    if not isinstance(value, dict):
        raise FlowInvalid(f"{where}: an assertion names a selector")
    fields = dict(value.get("selector", {k: v for k, v in value.items() if k != "timeout_s"}))
    return _target(fields, where), float(value.get("timeout_s", DEFAULT_ASSERT_S))


def parse_cond(raw: Any, where: str) -> Cond:
    """`{visible: SEL}` / `{not_visible: SEL}` (a string is a text selector)."""
    if not isinstance(raw, dict) or not set(raw) <= {"visible", "not_visible"} or not raw:
        raise FlowInvalid(f"{where}: a condition is visible: SELECTOR and/or not_visible: SELECTOR")
    pick = {k: _target({"text": v} if isinstance(v, str) else v, where) for k, v in raw.items()}
    return Cond(visible=pick.get("visible"), not_visible=pick.get("not_visible"))


def _target(fields: Any, where: str) -> Target:
    """A selector; with `text_regex` (Maestro's text matching) a TextPattern, or plain `text` for a literal."""
    if not isinstance(fields, dict) or "text_regex" not in fields:
        return _selector(fields, where)
    rest = {k: v for k, v in fields.items() if k != "text_regex"}
    regex = str(fields["text_regex"])
    if "text" in rest:
        raise FlowInvalid(f"{where}: selector: give text or text_regex, not both")
    if is_literal(regex):  # no regex syntax: the literal is matched as plain text
        return _selector({**rest, "text": regex}, where)
    extra = sorted(set(rest) - {"resource_id", "index"})
    if extra:
        raise FlowInvalid(f"{where}: selector: text_regex combines only with resource_id and index, "
                          f"not {extra[0]!r}")
    index = None if rest.get("index") is None else _bounded(rest["index"], 0, 10_000, where, "selector index")
    rid = rest.get("resource_id")
    return TextPattern(regex, resource_id=None if rid is None else str(rid), index=index)


def _selector(fields: Any, where: str) -> Selector:
    try:
        return Selector.model_validate(fields)
    except ValidationError as exc:
        raise FlowInvalid(f"{where}: selector: {exc.errors()[0]['msg']}") from exc


def _when(raw: Any, nodes: list[Node], scope: Scope, where: str, label: str) -> list[Node]:
    """`when: {env: {NAME: value}}` is decided now; `when: {visible|not_visible}` while running."""
    if raw is None:
        return nodes
    if not isinstance(raw, dict):
        raise FlowInvalid(f"{where}: when: expects visible, not_visible or env")
    screen = {k: v for k, v in raw.items() if k != "env"}
    if "env" in raw and not _env_holds(raw["env"], scope.env, where):
        return []
    if not screen:
        return nodes
    cond = parse_cond(screen, f"{where} (when)")
    return [When(cond, tuple(nodes), label or f"When {cond.describe()}")]


def _env_holds(raw: Any, env: dict[str, str], where: str) -> bool:
    if isinstance(raw, str):
        return bool(env.get(raw))
    if isinstance(raw, dict):
        return all(env.get(k) == str(v) for k, v in raw.items())
    raise FlowInvalid(f"{where}: when.env is a NAME or a mapping NAME: value")


def _optional(node: Node) -> Node:
    if isinstance(node, Do | Check):
        return replace(node, optional=True)
    return node


def _bounded(value: Any, low: int, high: int, where: str, what: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise FlowInvalid(f"{where}: {what} must be a whole number") from None
    if not low <= number <= high:
        raise FlowInvalid(f"{where}: {what} must be between {low} and {high}")
    return number


def flow_env(doc: dict[str, Any], params: dict[str, str], cli_env: dict[str, str], where: str) -> dict[str, str]:
    """The file's env defaults, overridden by a caller's parameters, overridden by -e."""
    return layered(env_block(doc.get("env"), where), params, cli_env)


def describe_action(action: Action) -> str:
    """Human words for an action, used when a flow step gives no instruction."""
    sel = action_selector(action)
    target = sel.describe() if sel else ""
    match action.kind:
        case "open_app":
            return f"Open {action.package}"
        case "open_link":
            return f"Open the link {action.url}" + (f" in {action.package}" if action.package else "")
        case "stop_app":
            return f"Stop {action.package}"
        case "clear_state":
            return f"Clear the data of {action.package}"
        case "type":
            return f"Type into {target or 'the focused field'}"
        case "press":
            return f"Press {action.key}"
        case "swipe":
            return f"Swipe {action.direction}"
        case _:
            return f"{action.kind.replace('_', ' ').capitalize()} {target}".strip()
