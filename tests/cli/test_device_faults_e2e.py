"""Device faults under a running task: the phone goes away mid-task, the u2 server crashes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.cli_process import INVOICE_FLOW, Cli
from tests.cli.test_crash_matrix_e2e import EXPECTED, Tally, finish_as_the_person, side_effects

pytestmark = pytest.mark.e2e


def test_phone_disappearing_pauses_the_task_and_resume_finishes_it(sim: Any, tmp_path: Path) -> None:
    sim.reset(scenario="disconnect")
    sim.wait_online()
    cli = Cli(tmp_path)
    first = cli.run("run", str(INVOICE_FLOW), "--device", sim.serial)
    assert first.returncode == 5, first.stderr
    error = [line for line in first.stderr.splitlines() if line.startswith("error:")]
    assert len(error) == 1 and sim.serial in error[0]
    task_id = cli.latest_task_id()
    paused = cli.show(task_id)["task"]
    assert paused["status"] == "IN_PROGRESS" and paused["status_reason"]
    sim.wait_online()  # the phone is back after a few seconds
    code = finish_as_the_person(cli, sim, task_id, Tally())
    assert code == 0
    assert side_effects(sim) == EXPECTED


def test_u2_server_crash_is_recovered_with_no_duplicated_tap(sim: Any, tmp_path: Path) -> None:
    sim.reset(scenario="u2_crash")
    sim.wait_online()
    cli = Cli(tmp_path)
    code = finish_as_the_person(cli, sim, _start(cli, sim), Tally())
    assert code == 0
    assert sim.server.device._crash_fired  # the u2 server really died mid-task
    assert side_effects(sim) == EXPECTED
    detail = cli.show(cli.latest_task_id())
    assert all(s["status"] in ("COMPLETED", "SKIPPED") for s in detail["task"]["steps"])


def _start(cli: Cli, sim: Any) -> str:
    done = cli.run("run", str(INVOICE_FLOW), "--device", sim.serial)
    assert done.returncode in (3, 5), done.stderr
    return cli.latest_task_id()
