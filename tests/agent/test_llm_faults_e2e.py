"""Every fault the scripted LLM can inject ends in a retry, a repair, or one clear line with exit code 8 —
and never in a half-written task: a failed planning leaves a FAILED task with its reason and LLM calls, a
failed replan ends the task FAILED with its completed steps intact. Real openai client, real sim."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from starebrain.agent.do_task import TaskPlanner
from starebrain.errors import LlmError, LlmTimeout, LlmUnavailable, PlanInvalid
from starebrain.models import TaskStatus
from starebrain.profiles import load_profiles
from tests.agent.support import (
    GMAIL,
    SEED,
    InProcess,
    LlmCli,
    broken_seed_steps,
    llm_env,
    no_element_ground,
    open_app,
    plan_entry,
    replan_entry,
    run_do,
)

pytestmark = pytest.mark.e2e

PLAN = [open_app(GMAIL)]
FAST = {"llm_timeout_s": 0.5}

RECOVERED = {  # fault entries before a good answer -> the outcome of each recorded call
    "timeout": ([{"purpose": "plan", "fault": {"kind": "delay", "seconds": 2}}], ["retried: timeout", "ok"]),
    "429": ([{"purpose": "plan", "fault": {"kind": "status", "status": 429, "retry_after": 0}}],
            ["retried: http 429", "ok"]),
    "500": ([{"purpose": "plan", "fault": {"kind": "status", "status": 500}}], ["retried: http 500", "ok"]),
    "malformed_json": ([{"purpose": "plan", "fault": "malformed_json"}], ["invalid", "repaired"]),
    "schema_violation": ([{"purpose": "plan", "fault": "schema_violation"}], ["invalid", "repaired"]),
    "unknown_package": ([{"purpose": "plan", "fault": "unknown_package"}], ["invalid", "repaired"]),
}
EXHAUSTED = {  # faults on every try -> the error raised
    "timeout": ({"kind": "delay", "seconds": 2}, LlmTimeout, "did not answer within 0.5s (3 attempts)"),
    "429": ({"kind": "status", "status": 429, "retry_after": 0}, LlmUnavailable, "answered 429, 3 attempts"),
    "malformed_json": ("malformed_json", PlanInvalid, "answer invalid after one repair: the reply is not valid JSON"),
    "schema_violation": ("schema_violation", PlanInvalid, "answer invalid after one repair: schema violation"),
    "unknown_package": ("unknown_package", PlanInvalid, "'com.example.notinstalled' is not installed"),
}


def _plan(sim: Any, tmp_path: Path, server: Any) -> tuple[Any, Any, list[Any]]:
    """One planning through TaskPlanner: (task or None, the error or None, the calls stored for the task)."""
    with InProcess(tmp_path, sim.serial, server.base_url).engine(**FAST) as (store, session, planner):
        task_planner = TaskPlanner(planner, store, session.device, load_profiles())
        try:
            task, error = task_planner.plan(SEED), None
        except LlmError as exc:
            task, error = store.load_task(exc.task_id), exc
        return task, error, store.llm_calls(task.id)


@pytest.mark.parametrize("fault", sorted(RECOVERED))
def test_fault_is_retried_or_repaired(fault: str, sim: Any, tmp_path: Path, llm: Any) -> None:
    before, outcomes = RECOVERED[fault]
    server = llm([*before, plan_entry(PLAN)])
    task, error, calls = _plan(sim, tmp_path, server)
    assert error is None and task.status == TaskStatus.PENDING and len(task.steps) == 1
    assert [c.outcome.split(":")[0] if o == "invalid" else c.outcome for c, o in zip(calls, outcomes, strict=True)] \
        == outcomes
    assert server.count("plan") == 2


@pytest.mark.parametrize("fault", sorted(EXHAUSTED))
def test_fault_that_persists_leaves_a_failed_task_with_its_calls(fault: str, sim: Any, tmp_path: Path,
                                                                llm: Any) -> None:
    kind, error_type, words = EXHAUSTED[fault]
    server = llm([{"purpose": "plan", "fault": kind, "repeat": 3}])
    task, error, calls = _plan(sim, tmp_path, server)
    assert isinstance(error, error_type) and error.exit_code == 8 and words in str(error)
    assert task.status == TaskStatus.FAILED and task.steps == []
    assert task.status_reason == f"planning failed: {error}"
    assert len(calls) == server.count("plan") and calls and "\n" not in str(error)


def test_missing_selectors_from_plan_and_ground_end_in_one_replan(sim: Any, tmp_path: Path, llm: Any) -> None:
    server = llm([{"purpose": "plan", "fault": "missing_selector"}, {"purpose": "ground", "fault": "missing_selector"},
                  replan_entry(PLAN)])
    with InProcess(tmp_path, sim.serial, server.base_url).engine() as (store, session, planner):
        task = run_do(store, session, planner, SEED)
        calls = store.llm_calls(task.id)
    assert [r.purpose for r in server.requests] == ["plan", "ground", "replan"]
    assert task.status == TaskStatus.COMPLETED and task.replan_count == 1
    assert [s.instruction for s in task.steps] == [f"Open {GMAIL}"] and len(calls) == 3


def test_cli_exits_8_with_one_line_when_the_endpoint_keeps_failing(sim: Any, tmp_path: Path, llm: Any) -> None:
    server = llm([{"purpose": "plan", "fault": {"kind": "status", "status": 500}, "repeat": 3}])
    cli = LlmCli(tmp_path, llm_env(server, STAREBRAIN_LLM_MAX_RETRIES="2"))
    done = cli.run("do", SEED, "--device", sim.serial)
    assert done.returncode == 8
    task_id = cli.latest_task_id()
    assert done.stderr.strip().splitlines()[-1] == (f"error: LLM endpoint {server.base_url}/ answered 500, "
                                                   f"3 attempts: scripted 500 [task {task_id}]")
    detail = cli.show(task_id)["task"]
    assert detail["status"] == "FAILED" and detail["status_reason"].startswith("planning failed: LLM endpoint")


def test_failed_replan_ends_the_task_failed_with_completed_steps_intact(sim: Any, tmp_path: Path,
                                                                       llm: Any) -> None:
    server = llm([plan_entry(broken_seed_steps()), no_element_ground(),
                  {"purpose": "replan", "fault": {"kind": "status", "status": 503}, "repeat": 3}])
    with InProcess(tmp_path, sim.serial, server.base_url).engine() as (store, session, planner):
        task = run_do(store, session, planner, SEED)
        stored, calls = store.load_task(task.id), store.llm_calls(task.id)
    assert stored.status == TaskStatus.FAILED and "replanning failed: LLM endpoint" in stored.status_reason
    assert stored.cursor == 1 and stored.steps[0].status.value == "COMPLETED" and stored.replan_count == 0
    assert len(stored.steps) == len(broken_seed_steps())  # nothing merged: the old plan stays as it was
    assert [c.purpose.value for c in calls] == ["plan", "ground", "replan", "replan", "replan"]
