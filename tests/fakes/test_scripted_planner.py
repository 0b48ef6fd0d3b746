"""ScriptedPlanner: the engine's stand-in for an LLM in pure-logic tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from starebrain.errors import LlmTimeout, LlmUnavailable
from starebrain.llm import Planner, PlanningContext, ReplanRequest, calls_of
from starebrain.models import AgentStep, LlmPurpose, OpenApp, Selector, Tap
from tests.fakes.scripted_planner import ScriptedPlanner


def _steps() -> list[AgentStep]:
    return [
        AgentStep(instruction="open mail", action=OpenApp(package="com.example.mail")),
        AgentStep(instruction="tap send", action=Tap(selector=Selector(text="Send")), irreversible=True),
    ]


def test_answers_in_order_and_records_calls() -> None:
    steps = _steps()
    planner = ScriptedPlanner(plans=[steps], replans=[steps[1:]], groundings=[Selector(text="Go"), None])
    assert isinstance(planner, Planner)
    plan = planner.plan("send it", PlanningContext())
    assert [s.index for s in plan.steps] == [0, 1]
    req = ReplanRequest(original_instruction="send it", completed_steps=plan.steps[:1],
                        failed_step=plan.steps[1], failure_reason="no Send button")
    assert [s.index for s in planner.replan(req).steps] == [1]
    assert planner.ground(steps[1], "screen").selector == Selector(text="Go")
    assert planner.ground(steps[1], "screen").selector is None
    assert planner.count(LlmPurpose.GROUND) == 2
    assert [c.purpose for c in planner.calls] == ["plan", "replan", "ground", "ground"]


def test_scripted_error_is_raised_with_its_call() -> None:
    planner = ScriptedPlanner(plans=[LlmTimeout("slow")])
    with pytest.raises(LlmTimeout) as info:
        planner.plan("x", PlanningContext())
    assert calls_of(info.value)[0].outcome.startswith("error")


def test_exhausted_script_is_unavailable() -> None:
    with pytest.raises(LlmUnavailable, match="no scripted plan answer"):
        ScriptedPlanner().plan("x", PlanningContext())


def test_importing_planner_does_not_import_openai() -> None:
    code = "import sys, starebrain.llm; print('openai' in sys.modules, 'httpx2' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.split() == ["False", "False"]
