"""A screen the plan did not expect: exactly one replan of the remaining steps, merged after the cursor;
completed steps are never run again (attempt counts, the sim's side-effect counts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from starebrain.models import TaskStatus
from tests.agent.support import (
    GMAIL,
    SEED,
    SEND_INDEX,
    InProcess,
    LlmCli,
    broken_seed_steps,
    llm_env,
    no_element_ground,
    outside_untrusted,
    plan_entry,
    plan_step,
    replan_entry,
    run_do,
    seed_steps,
    side_effects,
)

pytestmark = pytest.mark.e2e


def attempts_per_step(detail: dict[str, Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for attempt in detail["attempts"]:
        counts[attempt["step_id"]] = counts.get(attempt["step_id"], 0) + 1
    return counts


def test_missing_element_is_replanned_once_and_completed_steps_never_rerun(sim: Any, tmp_path: Path,
                                                                           llm: Any) -> None:
    server = llm([plan_entry(broken_seed_steps()), no_element_ground(), replan_entry(seed_steps()[1:])])
    cli = LlmCli(tmp_path, llm_env(server))
    first = cli.run("do", SEED, "--device", sim.serial)
    assert first.returncode == 3, first.stderr
    assert [r.purpose for r in server.requests] == ["plan", "ground", "replan"]
    replan = server.requests_for("replan")[0].message_text("user")
    trusted = outside_untrusted(replan)
    assert "Open Gmail — open_app com.google.android.gm [DONE]" in trusted
    assert 'Failed step: Start a new email — tap text="Write a message"' in trusted
    assert "compose_button" not in trusted and "compose_button" in replan  # the button it needs, only as data

    task_id = cli.latest_task_id()
    waiting = cli.show(task_id)["task"]
    assert waiting["replan_count"] == 1 and waiting["cursor"] == SEND_INDEX
    assert [s["instruction"] for s in waiting["steps"]] == [s["instruction"] for s in seed_steps()]
    assert cli.run("approve", task_id).returncode == 0
    assert [r.purpose for r in server.requests] == ["plan", "ground", "replan"]
    assert side_effects(sim) == {"mail_sent": 1, "task_completed": 1}
    detail = cli.show(task_id)
    steps = detail["task"]["steps"]
    assert detail["task"]["status"] == "COMPLETED" and all(s["status"] == "COMPLETED" for s in steps)
    counts = attempts_per_step(detail)
    assert all(counts[s["id"]] == 1 for s in steps)  # every step of the merged plan ran exactly once
    assert len(detail["attempts"]) == len(steps) + 1  # plus the failed attempt of the replaced step


def test_injected_screen_breaks_a_step_and_the_replan_continues_from_it(sim: Any, tmp_path: Path,
                                                                        llm: Any) -> None:
    sim.call(lambda phone: phone.inject("trigger", when=f"enter {GMAIL}/inbox",
                                        do=[{"interpose": f"{GMAIL}/sent"}]))
    back = plan_step("Leave the Sent folder", {"kind": "press", "key": "back"}, GMAIL)
    server = llm([plan_entry(seed_steps()), no_element_ground(), replan_entry([back, *seed_steps()[1:]])])
    with InProcess(tmp_path, sim.serial, server.base_url).engine() as (store, session, planner):
        task = run_do(store, session, planner, SEED)
        attempts = store.attempts(task.id)
    assert [r.purpose for r in server.requests] == ["plan", "ground", "replan"]
    assert "Sent" in server.requests_for("replan")[0].message_text("user")  # the screen it found instead
    assert task.status == TaskStatus.AWAITING_CONFIRMATION and task.replan_count == 1
    assert task.steps[0].instruction == "Open Gmail" and task.steps[1].instruction == "Leave the Sent folder"
    assert task.cursor == SEND_INDEX + 1  # one step longer: the revised steps start with "back"
    assert [a.step_id for a in attempts].count(task.steps[0].id) == 1
    assert side_effects(sim) == {}


def test_a_replan_that_fails_again_is_not_replanned_twice(sim: Any, tmp_path: Path, llm: Any) -> None:
    server = llm([plan_entry(broken_seed_steps()), no_element_ground(), replan_entry(broken_seed_steps()[1:]),
                  no_element_ground()])
    with InProcess(tmp_path, sim.serial, server.base_url).engine() as (store, session, planner):
        task = run_do(store, session, planner, SEED)
    assert [r.purpose for r in server.requests] == ["plan", "ground", "replan", "ground"]
    assert task.status == TaskStatus.FAILED and "failed 2 times" in task.status_reason
    assert task.steps[0].status.value == "COMPLETED" and task.cursor == 1


def test_replan_cap_from_settings_stops_without_asking_the_llm(sim: Any, tmp_path: Path, llm: Any) -> None:
    server = llm([plan_entry(broken_seed_steps()), no_element_ground()])
    with InProcess(tmp_path, sim.serial, server.base_url).engine(replan_cap=0) as (store, session, planner):
        task = run_do(store, session, planner, SEED)
    assert [r.purpose for r in server.requests] == ["plan", "ground"]
    assert task.status == TaskStatus.FAILED and "replan limit reached (0)" in task.status_reason
    assert task.steps[0].status.value == "COMPLETED" and task.cursor == 1
