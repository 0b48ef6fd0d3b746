"""Benchmark goals (AndroidWorld-style): an instruction, a scenario, and a check on the world state.

A goal file lists `expect` rules over the side-effect log: `{kind, where: {field: value}, count: N}`
(or `at_least: N`); a `where` value starting with `~` matches as a case-insensitive substring.
`check_goal(name, state)` works on `phone.state()`, on `read_state(dir)` or on the JSON printed by the
sim's `sim-state` shell command, and returns the unmet expectations (empty: success).
"""

from __future__ import annotations

import copy
from typing import Any

from starebrain.sim.world.resources import load_folder


def goal_names() -> list[str]:
    """Every goal file's name."""
    return sorted(load_folder("goals"))


def load_goal(name: str) -> dict[str, Any]:
    """A goal: `goal` (the instruction), `scenario`, `expect` rules."""
    goals = load_folder("goals")
    if name not in goals:
        raise ValueError(f"unknown goal {name!r}; known: {', '.join(sorted(goals))}")
    return copy.deepcopy(goals[name])


def _matches(effect: dict[str, Any], where: dict[str, Any]) -> bool:
    for field, wanted in where.items():
        value = effect.get(field, "")
        actual = ("true" if value else "false") if isinstance(value, bool) else str(value)
        wanted = str(wanted)
        if wanted.startswith("~"):
            if wanted[1:].lower() not in actual.lower():
                return False
        elif actual != wanted:
            return False
    return True


def _unmet(rule: dict[str, Any], effects: list[dict[str, Any]]) -> str | None:
    found = sum(1 for e in effects if e.get("kind") == rule["kind"] and _matches(e, rule.get("where", {})))
    if "at_least" in rule and found < int(rule["at_least"]):
        return f"{rule['kind']} {rule.get('where', {})}: {found} < {rule['at_least']}"
    if "count" in rule and found != int(rule["count"]):
        return f"{rule['kind']} {rule.get('where', {})}: {found} != {rule['count']}"
    return None


def check_goal(name: str, state: dict[str, Any]) -> list[str]:
    """The goal's expectations that the state does not meet (an empty list means the goal is done)."""
    effects = list(state.get("effects", []))
    return [problem for rule in load_goal(name)["expect"] if (problem := _unmet(rule, effects)) is not None]
