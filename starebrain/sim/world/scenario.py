"""Scenarios: named, seedable initial states with obstructions and faults, declared in data files."""

from __future__ import annotations

import copy
import random
from typing import Any

from starebrain.sim.world.resources import scenario_specs
from starebrain.sim.world.template import assign, resolve

LIST_KEYS = ("triggers", "notifications", "install")


def scenario_names() -> list[str]:
    """Every scenario file's name (combine several with `+`, e.g. `spinner+rate_us`)."""
    return sorted(scenario_specs())


def load_scenario(name: str) -> dict[str, Any]:
    """A scenario with its `include`s and `+`-joined parts merged, in order."""
    specs = scenario_specs()
    merged: dict[str, Any] = {"name": name, "triggers": [], "notifications": [], "data": {}, "patch_apps": {},
                              "faults": {}}
    for part in name.split("+"):
        if part not in specs:
            raise ValueError(f"unknown scenario {part!r}; known: {', '.join(sorted(specs))}")
        _merge(merged, _expanded(part, specs, set()))
    return merged


def _expanded(name: str, specs: dict[str, dict[str, Any]], seen: set[str]) -> dict[str, Any]:
    if name in seen:
        raise ValueError(f"scenario include cycle at {name!r}")
    spec = copy.deepcopy(specs[name])
    out: dict[str, Any] = {}
    for include in spec.pop("include", []):
        _merge(out, _expanded(include, specs, seen | {name}))
    _merge(out, spec)
    return out


def _merge(into: dict[str, Any], spec: dict[str, Any]) -> None:
    for key, value in spec.items():
        if key in LIST_KEYS:
            into.setdefault(key, []).extend(copy.deepcopy(value))
        elif isinstance(value, dict):
            target = into.setdefault(key, {})
            for sub, subvalue in value.items():
                if isinstance(subvalue, dict) and isinstance(target.get(sub), dict):
                    target[sub].update(copy.deepcopy(subvalue))
                else:
                    target[sub] = copy.deepcopy(subvalue)
        else:
            into[key] = value


def initial_data(apps: dict[str, dict[str, Any]], scenario: dict[str, Any], seed: int) -> dict[str, Any]:
    """Each app's starting data: its file's `data`, shuffled by seed, then the scenario's patches."""
    data = {pkg: copy.deepcopy(spec.get("data", {})) for pkg, spec in apps.items()}
    rng = random.Random(seed)
    for pkg, spec in apps.items():
        for path in spec.get("seeded_lists", []):
            _shuffle(resolve(data[pkg], path), rng, seed)
    for pkg, patches in scenario.get("data", {}).items():
        for path, value in patches.items():
            _patch(data.setdefault(pkg, {}), path, value)
    return data


def _shuffle(items: list[dict[str, Any]] | None, rng: random.Random, seed: int) -> None:
    """Seed 0 keeps the file's order; other seeds shuffle the unpinned items below the pinned ones."""
    if not items or seed == 0:
        return
    pinned = [i for i in items if i.get("pinned")]
    rest = [i for i in items if not i.get("pinned")]
    rng.shuffle(rest)
    items[:] = pinned + rest


def _patch(root: dict[str, Any], path: str, value: Any) -> None:
    """`path: value` sets; `path+: [items]` appends to a list."""
    if path.endswith("+"):
        target = resolve(root, path[:-1])
        if isinstance(target, list):
            target.extend(copy.deepcopy(value))
            return
        path = path[:-1]
    assign(root, path, copy.deepcopy(value))


def patch_apps(apps: dict[str, dict[str, Any]], patches: dict[str, dict[str, Any]]) -> None:
    """Apply `"PKG/SCREEN": {key: value}` overrides to screen declarations (e.g. `soft_input`)."""
    for ref, patch in patches.items():
        package, _, screen = ref.partition("/")
        apps[package]["screens"][screen].update(copy.deepcopy(patch))
