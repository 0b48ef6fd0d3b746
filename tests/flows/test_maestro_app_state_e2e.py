"""Maestro's stopApp and clearState mid-flow on the simulated phone, through `starebrain run` as a separate
process: a note added in Keep survives a stopApp, clearState deletes it once the person approved (Keep holds
the person's notes), and a run killed right after `pm clear` is put to the person on resume, never re-run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from starebrain.executor.task_executor import INTERRUPTED_REASON
from starebrain.store import Store
from tests.cli.cli_process import Cli

pytestmark = pytest.mark.e2e

KEEP = "com.google.android.keep"
FLOW = f"""\
appId: {KEEP}
name: keep-stop-and-clear
---
- launchApp
- tapOn: New note
- tapOn:
    id: editable_title
- inputText: Scratch note
- tapOn: Save
- assertVisible: Scratch note
- stopApp
- assertNotVisible:
    id: notes_list
- launchApp
- assertVisible: Scratch note
- clearState
- launchApp
- assertNotVisible: Scratch note
- assertVisible: Groceries
"""


def _world(sim: Any) -> tuple[dict[str, int], list[str]]:
    state = sim.call(lambda phone: phone.state())
    return dict(state["side_effects"]), [n["title"] for n in state["apps"][KEEP]["notes"]]


def _ask_for_the_clearing(cli: Cli, sim: Any, tmp_path: Path) -> tuple[str, dict[str, Any]]:
    """Run the flow until it waits for the person on clearState; the note was added and survived stopApp."""
    (tmp_path / "keep.yaml").write_text(FLOW)
    asked = cli.run("run", str(tmp_path / "keep.yaml"), "--device", sim.serial)
    assert asked.returncode == 3, asked.stdout + asked.stderr  # waiting for the person
    task_id = cli.latest_task_id()
    task = cli.show(task_id)["task"]
    step = task["steps"][task["cursor"]]
    assert step["action"] == {"kind": "clear_state", "package": KEEP} and "cannot be undone" in task["status_reason"]
    kinds = [s["action"]["kind"] for s in task["steps"] if s["status"] == "COMPLETED"]
    assert "stop_app" in kinds
    effects, titles = _world(sim)
    assert titles[0] == "Scratch note" and effects.get("app_data_cleared", 0) == 0
    return task_id, step


def test_stop_app_keeps_the_note_and_an_approved_clear_state_deletes_it(sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path / "sb")
    task_id, _ = _ask_for_the_clearing(cli, sim, tmp_path)
    done = cli.run("approve", task_id)
    assert done.returncode == 0, done.stdout + done.stderr
    assert cli.show(task_id)["task"]["status"] == "COMPLETED"
    effects, titles = _world(sim)
    assert effects["app_data_cleared"] == 1 and "Scratch note" not in titles and "Groceries" in titles


def test_a_clear_state_killed_after_it_was_sent_is_asked_again_not_repeated(sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path / "sb")
    task_id, step = _ask_for_the_clearing(cli, sim, tmp_path)
    killed = cli.run("approve", task_id, crash_at=f"after_act:{step['index']}")
    assert killed.returncode == -9, killed.stdout + killed.stderr  # SIGKILLed right after `pm clear`
    resumed = cli.run("resume", task_id)
    assert resumed.returncode == 3, resumed.stdout + resumed.stderr  # the person decides: it may have happened
    assert cli.show(task_id)["task"]["status_reason"] == INTERRUPTED_REASON
    assert _world(sim)[0]["app_data_cleared"] == 1
    done = cli.run("skip", task_id)  # the person sees the note is gone
    assert done.returncode == 0, done.stdout + done.stderr
    assert cli.show(task_id)["task"]["status"] == "COMPLETED"
    effects, titles = _world(sim)
    assert effects["app_data_cleared"] == 1 and "Scratch note" not in titles  # cleared once, never re-run
    with Store.open(cli.home / "starebrain.db") as store:
        assert len(store.attempts(task_id, step["id"])) == 1
