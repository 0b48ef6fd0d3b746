"""Loading the world's data files (apps, dialogs, scenarios) from the installed package."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml

_PACKAGE = "starebrain.sim.world"


def _folder(name: str) -> Any:
    return resources.files(_PACKAGE).joinpath(name)


@cache
def load_folder(name: str) -> dict[str, dict[str, Any]]:
    """Every YAML file of a data folder, keyed by file name (cached; callers must not mutate)."""
    out: dict[str, dict[str, Any]] = {}
    for entry in sorted(_folder(name).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            out[entry.name[: -len(".yaml")]] = yaml.safe_load(entry.read_text(encoding="utf-8"))
    return out


def app_specs() -> dict[str, dict[str, Any]]:
    """Every app file, keyed by package."""
    return {spec["package"]: spec for spec in load_folder("apps").values()}


def scenario_specs() -> dict[str, dict[str, Any]]:
    """Every scenario file, keyed by its name."""
    return load_folder("scenarios")


def dialog_specs() -> dict[str, dict[str, Any]]:
    """Dialog templates (permission, ANR, overlays), keyed by name."""
    return load_folder("dialogs")
