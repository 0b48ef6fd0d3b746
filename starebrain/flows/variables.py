"""`${NAME}` in flow files: values from the flow's `env`, a sub-flow's parameters and `-e NAME=VALUE`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from starebrain.errors import BadInput, FlowInvalid

VAR = re.compile(r"\$\{([^}]*)\}")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def substitute(value: Any, env: Mapping[str, str], where: str) -> Any:
    """`value` with every `${NAME}` replaced, recursively through lists and mappings."""
    if isinstance(value, str):
        return VAR.sub(lambda m: _lookup(m.group(1).strip(), env, where), value)
    if isinstance(value, list):
        return [substitute(v, env, where) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, env, where) for k, v in value.items()}
    return value


def _lookup(name: str, env: Mapping[str, str], where: str) -> str:
    if not NAME.match(name):
        raise FlowInvalid(f"{where}: '${{{name}}}' is not a variable name (JavaScript expressions are not "
                          f"supported)")
    if name not in env:
        raise FlowInvalid(f"{where}: variable {name} is not set (give it in the flow's env: or with "
                          f"-e {name}=VALUE)")
    return env[name]


def env_block(raw: Any, where: str) -> dict[str, str]:
    """A flow's or sub-flow's `env:` mapping, values as strings."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(isinstance(k, str) and NAME.match(k) for k in raw):
        raise FlowInvalid(f"{where}: env must map NAME: value")
    return {k: "" if v is None else str(v) for k, v in raw.items()}


def parse_assignments(pairs: Iterable[str]) -> dict[str, str]:
    """`-e NAME=VALUE` options; a malformed one is a BadInput naming it."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not NAME.match(name):
            raise BadInput(f"-e {pair!r}: expected NAME=VALUE")
        out[name] = value
    return out


def layered(defaults: Mapping[str, str], *overrides: Mapping[str, str]) -> dict[str, str]:
    """Defaults overridden left to right (the command line is always the last layer)."""
    merged = dict(defaults)
    for layer in overrides:
        merged.update(layer)
    return merged
