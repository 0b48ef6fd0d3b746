"""`starebrain daemon`: a task paused by an unplugged phone resumes by itself when the phone is back."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from starebrain.store import Store
from tests.cli.cli_process import INVOICE_FLOW, Cli
from tests.cli.faults import side_effects

pytestmark = pytest.mark.e2e


def wait_for_status(db: Path, task_id: str, status: str, timeout_s: float = 60.0) -> str:
    deadline = time.monotonic() + timeout_s
    current = ""
    while time.monotonic() < deadline:
        with Store.open(db) as store:
            current = store.load_task(task_id).status.value
        if current == status:
            return current
        time.sleep(0.3)
    return current


def test_daemon_resumes_a_paused_task_and_never_approves(sim: Any, tmp_path: Path) -> None:
    sim.reset(scenario="disconnect")
    sim.wait_online()
    cli = Cli(tmp_path)
    assert cli.run("run", str(INVOICE_FLOW), "--device", sim.serial).returncode == 5  # the phone went away
    task_id = cli.latest_task_id()
    daemon = subprocess.Popen([sys.executable, "-m", "starebrain.cli", "daemon", "--interval", "0.5"], env=cli.env(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL)
    try:
        status = wait_for_status(tmp_path / "starebrain.db", task_id, "AWAITING_CONFIRMATION")
        assert status == "AWAITING_CONFIRMATION"
        time.sleep(1.5)  # a few more looks: it must keep waiting for the person
        assert wait_for_status(tmp_path / "starebrain.db", task_id, "AWAITING_CONFIRMATION", 1) == status
        assert side_effects(sim) == {}
    finally:
        daemon.send_signal(signal.SIGTERM)
        out, _ = daemon.communicate(timeout=30)
    assert daemon.returncode == 0, out
    assert f"resuming task {task_id}" in out and f"starebrain approve {task_id}" in out
    assert out.count(f"task {task_id} waits for you") == 1  # announced once
