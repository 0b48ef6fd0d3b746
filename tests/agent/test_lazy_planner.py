"""`LazyPlanner`: resume/approve/retry of a do-task can ground and replan, but build the LLM client (and
import openai) only when a step actually needs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from starebrain.agent.lazy_planner import LazyPlanner
from starebrain.agent.replanner import Replanner
from starebrain.llm import PlanningContext
from starebrain.models import AgentStep, LlmPurpose, Tap
from starebrain.models.selector import Selector
from tests.agent.support import (
    SEED,
    LlmCli,
    broken_seed_steps,
    llm_env,
    no_element_ground,
    plan_entry,
    probe_report,
    replan_entry,
    seed_steps,
    side_effects,
)
from tests.fakes.scripted_planner import ScriptedPlanner

RESUME_PATH_MODULES = ("starebrain.cli.app", "starebrain.cli.task_commands", "starebrain.cli.wiring",
                       "starebrain.session",
                       "starebrain.agent.lazy_planner", "starebrain.agent.replanner", "starebrain.store")


def _step() -> AgentStep:
    return AgentStep(index=0, instruction="Tap Send", action=Tap(selector=Selector(text="Send")))


def test_the_real_planner_is_built_once_and_only_on_first_use() -> None:
    built: list[ScriptedPlanner] = []

    def factory() -> ScriptedPlanner:
        built.append(ScriptedPlanner(plans=[[_step()]], groundings=[Selector(text="Send")]))
        return built[-1]

    lazy = LazyPlanner(factory=factory)
    assert not lazy.built and built == []
    assert lazy.plan(SEED, PlanningContext()).steps[0].instruction == "Tap Send"
    assert lazy.ground(_step(), "").selector == Selector(text="Send")
    assert len(built) == 1 and lazy.built
    assert built[0].count(LlmPurpose.PLAN) == 1 and built[0].count(LlmPurpose.GROUND) == 1


def test_replanner_asks_the_device_for_packages_only_when_it_replans() -> None:
    asked: list[int] = []

    def packages() -> list[str]:
        asked.append(1)
        return ["com.b", "com.a"]

    replanner = Replanner(ScriptedPlanner(), packages)
    assert asked == []
    assert replanner.launchable_packages == ["com.a", "com.b"] and replanner.launchable_packages
    assert asked == [1]


def test_importing_the_resume_path_does_not_import_openai() -> None:
    code = (f"import sys\nfor m in {RESUME_PATH_MODULES!r}: __import__(m)\n"
            "from starebrain.agent.lazy_planner import LazyPlanner\nLazyPlanner(None)\n"
            "print('openai' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_engine_gives_a_lazy_planner_to_do_tasks_only(tmp_path: Path) -> None:
    from starebrain.config import load_settings
    from starebrain.engine import planner_for
    from starebrain.models import AgentTask

    settings = load_settings(home=tmp_path)
    for source, serial, wanted in (("do", "emulator-1", True), ("flow", "emulator-1", False),
                                   ("do", "emulator-9", False)):
        task = AgentTask(instruction=SEED, device_serial="emulator-1", source=source)
        assert isinstance(planner_for(settings, task, serial), LazyPlanner) is wanted
    assert planner_for(settings, None, "emulator-1") is None


@pytest.mark.e2e
def test_resumed_do_task_replans_a_failed_step(sim: Any, tmp_path: Path, llm: Any) -> None:
    server = llm([plan_entry(broken_seed_steps()), no_element_ground(), replan_entry(seed_steps()[1:])])
    cli = LlmCli(tmp_path, llm_env(server))
    killed = cli.run("do", SEED, "--device", sim.serial, crash_at="after_commit:0")  # dies after "Open Gmail"
    assert killed.returncode == -9, killed.stderr
    assert [r.purpose for r in server.requests] == ["plan"]
    task_id = cli.latest_task_id()

    resumed = cli.run("resume", task_id, probe=True)
    assert resumed.returncode == 3, resumed.stderr  # replanned, then stopped before Send for the person
    assert [r.purpose for r in server.requests] == ["plan", "ground", "replan"]
    assert probe_report(resumed.stderr).openai_imported  # built on demand, because a step needed the LLM
    detail = cli.show(task_id)
    task = detail["task"]
    assert task["replan_count"] == 1 and task["status"] == "AWAITING_CONFIRMATION"
    assert [a["step_id"] for a in detail["attempts"]].count(task["steps"][0]["id"]) == 1
    replan = server.requests_for("replan")[0].message_text("user")
    assert "Open Gmail — open_app com.google.android.gm [DONE]" in replan
    assert "com.google.android.gm" in replan.split("Installed apps you may open:")[1]  # packages from the device
    assert side_effects(sim) == {}
