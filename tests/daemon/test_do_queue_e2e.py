"""`starebrain do --queue`: the daemon that claims the instruction plans it on its phone, then runs it.

Real processes throughout: the CLI, the daemon, the scripted LLM server on loopback (through the real
openai client) and a simulated phone. One test covers the three ends a queued plan can have: a plan
that fails (the task ends FAILED with the reason and its call), a daemon SIGKILLed while it waits for
the LLM (nothing happened on the phone; the next daemon plans again), and a plan that runs to the end
with its side effect exactly once.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from starebrain.llmserver import ScriptedLlmServer, plan_step
from starebrain.store import Store
from tests.agent.support import llm_env, plan_entry, tap, type_into
from tests.cli.cli_process import Cli
from tests.cli.faults import side_effects, wait_until
from tests.daemon.test_daemon_e2e import stop

pytestmark = pytest.mark.e2e

KEEP = "com.google.android.keep"
FAILS, NOTE = "Note the boiler service", "Note the plumber's visit on Tuesday morning"


def note_steps() -> list[dict[str, Any]]:
    """What a model would plan for NOTE on the simulated phone: a new note in Keep, saved."""
    return [plan_step("Open Keep Notes", {"kind": "open_app", "package": KEEP}, KEEP),
            tap("Start a new note", KEEP, resource_id=f"{KEEP}:id/new_note_button",
                expect={"resource_id": f"{KEEP}:id/edit_note_text"}),
            type_into("Title the note", KEEP, "Plumber", resource_id=f"{KEEP}:id/editable_title"),
            type_into("Write the note", KEEP, "Tuesday morning, let him in", resource_id=f"{KEEP}:id/edit_note_text"),
            plan_step("Close the keyboard", {"kind": "press", "key": "back"}, KEEP),
            tap("Save the note", KEEP, resource_id=f"{KEEP}:id/save_note_button",
                expect={"resource_id": f"{KEEP}:id/index_note_title", "text": "Plumber"})]


def queue(cli: Cli, instruction: str, serial: str) -> str:
    done = cli.run("do", instruction, "--queue", "--device", serial, "--json")
    assert done.returncode == 0, done.stderr
    queued = json.loads(done.stdout)
    assert queued["device"] == serial and queued["labels"] == {}
    return str(queued["id"])


@pytest.fixture
def server() -> Iterator[ScriptedLlmServer]:
    """The LLM: a plan that fails, one that never comes in time (the first daemon dies waiting), a good one."""
    with ScriptedLlmServer({"model": "scripted", "entries": [
            {"purpose": "plan", "fault": {"kind": "status", "status": 500, "message": "model overloaded"}},
            plan_entry(note_steps(), fault={"kind": "delay", "seconds": 120}),
            plan_entry(note_steps())]}) as started:
        yield started


def test_queued_instructions_are_planned_by_the_daemon_once_even_across_a_kill(
        sim: Any, tmp_path: Path, server: ScriptedLlmServer) -> None:
    cli = Cli(tmp_path)
    env = llm_env(server, STAREBRAIN_LLM_MAX_RETRIES="0")
    failing, task_id = queue(cli, FAILS, sim.serial), queue(cli, NOTE, sim.serial)
    assert cli.show(task_id)["task"]["steps"] == [] and server.requests == []  # queuing asks no LLM

    first = cli.start("daemon", "--interval", "0.2", **env)
    try:
        done = cli.run("wait", failing, "--timeout", "120", "--quiet")
        assert done.returncode == 1, done.stdout + done.stderr  # FAILED: exit 1, like a failed `run`
        assert "planning failed" in done.stdout and "500" in done.stdout
        wait_until(lambda: any(r.fault == "delay" for r in server.requests), timeout_s=60, what="the slow plan")
    finally:
        first.send_signal(signal.SIGKILL)
        out, _ = first.communicate(timeout=30)
    assert f"task {failing} failed in" in out and "planning failed" in out, out
    assert f"planning task {task_id}" in out, out
    killed = cli.show(task_id)["task"]
    assert (killed["status"], killed["steps"]) == ("PENDING", []) and side_effects(sim) == {}

    second = cli.start("daemon", "--interval", "0.2", **env)
    try:
        done = cli.run("wait", task_id, "--timeout", "120", "--quiet")
        assert done.returncode == 0, done.stdout + done.stderr
    finally:
        out = stop(second)
    assert f"planning task {task_id}" in out and f"task {task_id} completed in" in out, out
    assert side_effects(sim) == {"note_saved": 1}
    planned = cli.show(task_id)["task"]
    assert planned["source"] == "do" and len(planned["steps"]) == len(note_steps())
    plans = [r for r in server.requests if r.purpose == "plan"]
    assert len(plans) == 3 and NOTE in json.dumps(plans[2].body)  # the killed daemon's call, then this one
    with Store.open(tmp_path / "starebrain.db") as store:
        assert [c.purpose for c in store.llm_calls(task_id)] == ["plan"]  # the task holds the call it ran with
        assert len(store.llm_calls(failing)) == 1 and store.load_task(failing).steps == []
