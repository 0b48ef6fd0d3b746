"""Reading a sim's world state from outside: over adb (`sim-state` shell command) or from its state dir."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starebrain.sim.adb_server import bundled_adb


def read_sim_state(serial: str | None, state_dir: Path | None, adb_port: int) -> dict[str, Any] | None:
    """The running sim's state (by serial, or the serial recorded in state_dir), else the persisted one."""
    if serial is None and state_dir is not None and (state_dir / "sim.json").is_file():
        serial = json.loads((state_dir / "sim.json").read_text()).get("serial")
    if serial is not None:
        live = _live_state(serial, adb_port)
        if live is not None:
            return live
    if state_dir is not None:
        from starebrain.sim.world import read_state

        return read_state(state_dir)
    return None


def _live_state(serial: str, adb_port: int) -> dict[str, Any] | None:
    import subprocess

    try:
        result = subprocess.run([bundled_adb(), "-P", str(adb_port), "-s", serial, "shell", "sim-state"],
                                capture_output=True, timeout=15, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    try:
        data = json.loads(result.stdout)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
