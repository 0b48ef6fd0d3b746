"""`starebrain sim start|state|scenarios` and `python -m starebrain.cli sim`."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import adbutils
import pytest
from typer.testing import CliRunner

from starebrain.cli.sim import app
from starebrain.sim.harness import SimProcess

runner = CliRunner()


def test_scenarios_lists_the_worlds_scenarios() -> None:
    result = runner.invoke(app, ["scenarios"])
    assert result.exit_code == 0 and "default" in result.output.split()


@pytest.mark.e2e
def test_start_runs_in_the_foreground_and_stops_cleanly_on_sigterm(adb_server: Any, tmp_path: Path) -> None:
    sim = SimProcess(adb_server, extra_args=("--state-dir", str(tmp_path)))
    try:
        sim.wait_online()
        assert sim.serial == f"emulator-{sim.port - 1}"
        device = adbutils.adb.device(sim.serial)
        device.sync.push(b"kept across restarts", "/sdcard/Download/note.txt")
        live = runner.invoke(app, ["state", "--serial", sim.serial, "--json", "--adb-port", str(adb_server.port)])
        assert live.exit_code == 0 and isinstance(json.loads(live.output), dict)
        by_dir = runner.invoke(app, ["state", "--state-dir", str(tmp_path), "--json",
                                     "--adb-port", str(adb_server.port)])
        assert by_dir.exit_code == 0 and json.loads(by_dir.output) == json.loads(live.output)
    finally:
        sim.process.send_signal(signal.SIGTERM)
        assert sim.process.wait(timeout=10) == 0
    assert adb_server.wait_for(sim.serial, None, timeout=10)
    again = SimProcess(adb_server, extra_args=("--state-dir", str(tmp_path)))
    try:
        again.wait_online()
        assert adbutils.adb.device(again.serial).shell("cat /sdcard/Download/note.txt") == "kept across restarts"
    finally:
        again.stop()


def test_state_without_a_sim_exits_4(tmp_path: Path) -> None:
    result = runner.invoke(app, ["state", "--state-dir", str(tmp_path / "none"), "--adb-port", "1"])
    assert result.exit_code == 4


def test_start_rejects_a_bad_serial_before_touching_adb() -> None:
    result = runner.invoke(app, ["start", "--serial", "bogus", "--adb-port", "1"])
    assert result.exit_code == 2 and "emulator-N" in result.output


def test_start_rejects_an_unknown_android_version() -> None:
    result = runner.invoke(app, ["start", "--android", "12", "--adb-port", "1"])
    assert result.exit_code == 2 and "--android must be 13, 14 or 15" in result.output


@pytest.mark.e2e
def test_start_speaks_the_chosen_android_version(adb_server: Any) -> None:
    sim = SimProcess(adb_server, extra_args=("--android", "13"))
    try:
        sim.wait_online()
        device = adbutils.adb.device(sim.serial)
        assert device.getprop("ro.build.version.release") == "13" and device.getprop("ro.build.version.sdk") == "33"
        assert device.info["serialno"] == sim.serial
    finally:
        sim.stop()
