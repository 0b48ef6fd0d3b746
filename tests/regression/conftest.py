"""Helpers for `starebrain test` end to end: the CLI in-process against simulated phones."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

EXAMPLES = Path(__file__).resolve().parents[2] / "starebrain" / "flows" / "examples" / "suite"
XSD = Path(__file__).resolve().parent / "JUnit.xsd"

SETTINGS_FLAKY = """\
format: starebrain-flow
version: 1
name: settings-wifi-summary
instruction: Check the Wi-Fi summary
steps:
  - press: home
  - open_app: com.android.settings
  - tap: {text: "Network & internet"}
    instruction: Open Network & internet
  - wait_for: {selector: {resource_id: "com.android.settings:id/wifi_summary"}, timeout_s: 0.5}
    instruction: See the Wi-Fi summary
  - press: back
  - press: back
"""

SETTINGS_BROKEN = """\
format: starebrain-flow
version: 1
name: settings-bluetooth
instruction: Open Bluetooth settings
steps:
  - press: home
  - open_app: com.android.settings
  - tap: {text: Bluetooth}
    instruction: Open Bluetooth
  - press: back
"""


@dataclass
class CliResult:
    exit_code: int
    output: str


@pytest.fixture
def sb_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch STAREBRAIN_HOME (database and artifacts) for one test."""
    home = tmp_path / "sb"
    monkeypatch.setenv("STAREBRAIN_HOME", str(home))
    monkeypatch.setenv("STAREBRAIN_SECRET_BANK_PASSWORD", "hunter2")
    monkeypatch.setenv("COLUMNS", "200")
    return home


def run_cli(*args: str) -> CliResult:
    """`starebrain ARGS...` in this process (the fixtures' adb server port is in the environment)."""
    from starebrain.cli.app import app

    result = CliRunner().invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return CliResult(result.exit_code, result.output)


def copy_flows(folder: Path, *names: str) -> Path:
    """Copy example flows (by stem) into `folder`; returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(EXAMPLES / f"{name}.yaml", folder / f"{name}.yaml")
    return folder
