"""Versioned YAML flow files (explicit step lists) and the example flows shipped with StareBrain."""

from __future__ import annotations

from pathlib import Path


def examples_dir() -> Path:
    """The folder of example flows for the simulated phone (inside the installed package)."""
    return Path(__file__).parent / "examples"
