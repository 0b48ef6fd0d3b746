"""Flow files: StareBrain's own YAML (versions 1 and 2) and Maestro flows, loaded into one Flow.

```yaml
format: starebrain-flow
version: 2
name: invoice-errand
instruction: Send the invoice to the client I just messaged
tags: [mail]
env: {TO: dana@whitfield.example}
steps:
  - open_app: com.google.android.gm
  - tap: {text: Compose}
    expect: {resource_id: com.google.android.gm:id/to}
  - type: {selector: {resource_id: com.google.android.gm:id/to}, text: "${TO}"}
  - tap: {content_desc: Send}
    irreversible: true
```

A file with an `appId` header followed by a command list is read as a Maestro flow
(starebrain/flows/maestro.py). docs/flows.md documents both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict

from starebrain.errors import FlowInvalid
from starebrain.flows.native import ACTION_KEYS, STEP_KEYS, Scope, compile_steps, describe_action, flow_env
from starebrain.flows.program import (
    Check,
    Do,
    Finally,
    Node,
    RepeatWhile,
    Retry,
    When,
    is_static,
    secret_names,
    static_steps,
)
from starebrain.models import AgentStep

FLOW_FORMAT = "starebrain-flow"
FLOW_VERSIONS = (1, 2)
HEADER_KEYS = {"format", "version", "name", "instruction", "steps", "tags", "env", "on_start", "on_complete"}

__all__ = ["ACTION_KEYS", "FLOW_FORMAT", "STEP_KEYS", "Flow", "describe_action", "load_flow", "parse_flow"]


class Flow(BaseModel):
    """A loaded flow: its program, and (when nothing is decided on the phone) the flat step list."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    name: str
    instruction: str
    steps: list[AgentStep]  # the whole flow when `dynamic` is False; empty otherwise
    path: str = ""
    program: tuple[Any, ...] = ()
    tags: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()
    dialect: str = FLOW_FORMAT
    last_package: str | None = None

    @property
    def dynamic(self) -> bool:
        """True when a step depends on the screen (when/optional/retry/repeat while/assert_not_visible)."""
        return not is_static(list(self.program))


def load_flow(path: Path, env: Mapping[str, str] | None = None, *, params: Mapping[str, str] | None = None,
              cli_env: Mapping[str, str] | None = None, stack: tuple[str, ...] = (),
              package: str | None = None) -> Flow:
    """Read and validate a flow file; any problem is one FlowInvalid line naming file and step.

    `env` holds `-e NAME=VALUE` values; `params`, `stack` and `package` are a sub-flow's call site.
    """
    cli = dict(cli_env if cli_env is not None else env or {})
    text = _read(path)
    try:
        docs = [d for d in yaml.safe_load_all(text)]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise FlowInvalid(f"{path}:{where} not valid YAML ({getattr(exc, 'problem', exc)})") from exc
    stack = stack or (str(path.resolve()),)
    from starebrain.flows.maestro import is_maestro, load_maestro

    if is_maestro(docs):
        return load_maestro(path, text, docs, params=dict(params or {}), cli_env=cli, stack=stack, package=package)
    if len(docs) != 1:
        raise FlowInvalid(f"{path}: a flow is one YAML document (or a Maestro appId header, ---, commands)")
    return parse_flow(docs[0], source=str(path), params=dict(params or {}), cli_env=cli, stack=stack,
                      package=package)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FlowInvalid(f"{path}: cannot read flow file ({exc.strerror or exc})") from exc


def parse_flow(doc: Any, *, source: str = "<flow>", params: dict[str, str] | None = None,
               cli_env: dict[str, str] | None = None, stack: tuple[str, ...] = (),
               package: str | None = None) -> Flow:
    """Validate a StareBrain flow document already loaded from YAML."""
    if not isinstance(doc, dict):
        raise FlowInvalid(f"{source}: a flow is a mapping with format, version and steps")
    version = _check_header(doc, source)
    cli = cli_env or {}
    env = flow_env(doc, params or {}, cli, source) if version > 1 else {}
    scope = Scope(source=source, env=env, cli_env=cli, version=version, package=package, stack=stack)
    program: list[Node] = []
    for hook in ("on_start", "steps", "on_complete"):
        if doc.get(hook) is None and hook != "steps":
            continue
        nodes, scope = compile_steps(doc.get(hook), scope, source if hook == "steps" else f"{source}: {hook}",
                                     _load_sub)
        if hook == "on_complete":  # runs after the flow even when it failed (as Maestro's onFlowComplete)
            program = [Finally(tuple(program), tuple(_in_hook(nodes, hook)))]
        else:
            program += nodes
    name = str(doc.get("name") or Path(source).stem)
    return build_flow(name=name, instruction=str(doc.get("instruction") or name), program=program,
                      path=source, tags=_tags(doc.get("tags"), source), last_package=scope.package)


def build_flow(*, name: str, instruction: str, program: list[Node], path: str, tags: tuple[str, ...],
               last_package: str | None, dialect: str = FLOW_FORMAT) -> Flow:
    """The Flow for a compiled program (shared by both dialects)."""
    steps = static_steps(program) if is_static(program) else []
    return Flow(name=name, instruction=instruction, steps=steps, path=path, program=tuple(program), tags=tags,
                secrets=tuple(secret_names(program)), dialect=dialect, last_package=last_package)


def _in_hook(nodes: list[Node] | tuple[Node, ...], hook: str) -> list[Node]:
    """The hook's steps named after it (`on_complete: Press back`), so a report shows why they ran."""
    out: list[Node] = []
    for node in nodes:
        if isinstance(node, Do):
            node = replace(node, step=node.step.model_copy(update={"instruction": f"{hook}: {node.step.instruction}"}))
        elif isinstance(node, Check):
            node = replace(node, label=f"{hook}: {node.label}")
        elif isinstance(node, When | RepeatWhile | Retry):
            node = replace(node, label=f"{hook}: {node.label}", body=tuple(_in_hook(node.body, hook)))
        elif isinstance(node, Finally):
            node = Finally(tuple(_in_hook(node.body, hook)), tuple(_in_hook(node.after, hook)))
        out.append(node)
    return out


def _load_sub(path: Path, **call: Any) -> Flow:
    return load_flow(path, **call)


def _check_header(doc: dict[str, Any], source: str) -> int:
    if doc.get("format") != FLOW_FORMAT:
        raise FlowInvalid(f"{source}: 'format' must be '{FLOW_FORMAT}'")
    version = doc.get("version")
    if version not in FLOW_VERSIONS:
        raise FlowInvalid(f"{source}: flow version {version!r} is not supported (this StareBrain reads "
                          f"versions {', '.join(map(str, FLOW_VERSIONS))})")
    if version == 1:
        return 1
    unknown = sorted(set(doc) - HEADER_KEYS)
    if unknown:
        raise FlowInvalid(f"{source}: unknown key {unknown[0]!r} in the flow header")
    return 2


def _tags(raw: Any, source: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        raise FlowInvalid(f"{source}: tags must be a list of words")
    return tuple(raw)
