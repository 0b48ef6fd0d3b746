"""`starebrain run` / `approve` / `resume` as separate processes on flows that depend on the screen:
a Maestro flow runs as it is, and a confirmed step inside a sub-flow behind a condition is asked,
approved in another process (with the same -e values) and never repeated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from starebrain.flows import examples_dir
from tests.cli.cli_process import Cli
from tests.flows.test_driver_e2e import REPLY, SEND, sent

pytestmark = pytest.mark.e2e


def test_a_maestro_flow_with_conditions_runs_with_starebrain_run(sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path / "sb")
    done = cli.run("run", str(examples_dir() / "maestro" / "settings-resilient.yaml"), "--device", sim.serial)
    assert done.returncode == 0, done.stderr
    task = cli.show(cli.latest_task_id())["task"]
    assert task["status"] == "COMPLETED" and task["source"].endswith("settings-resilient.yaml")
    assert any(s["instruction"].startswith("When text=\"Network & internet\" is visible: yes")
               for s in task["steps"])


def test_a_confirmation_inside_a_sub_flow_is_approved_from_another_process(sim: Any, tmp_path: Path) -> None:
    (tmp_path / "send.yaml").write_text(SEND)
    (tmp_path / "reply.yaml").write_text(REPLY)
    cli = Cli(tmp_path / "sb")
    asked = cli.run("run", str(tmp_path / "reply.yaml"), "--device", sim.serial, "-e", "TEXT=Running late")
    assert asked.returncode == 3, asked.stderr
    assert "Send the reply to Mom" in asked.stderr and sent(sim) == 0
    task_id = cli.latest_task_id()
    approved = cli.run("approve", task_id)
    assert approved.returncode == 0, approved.stderr
    task = cli.show(task_id)["task"]
    assert [s["instruction"] for s in task["steps"]][-1] == "Press back" and task["status"] == "COMPLETED"
    typed = [s["action"]["text"] for s in task["steps"] if s["action"]["kind"] == "type"]
    assert typed == ["Running late"]  # the -e value, kept with the task for the approving process
    assert sent(sim) == 1
    again = cli.run("resume", task_id)
    assert again.returncode == 0 and sent(sim) == 1
