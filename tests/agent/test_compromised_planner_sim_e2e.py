"""The compromised-planner property through the real stack: the same generated plans (a smaller number),
served by the scripted LLM through the real openai client, run by the engine `starebrain do` builds on the
sim behind the real adb server. The person denies every question: no sensitive side effect may exist."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from starebrain.llmserver import plan_step, selector_dict
from starebrain.models import AgentStep
from tests.agent.support import InProcess, plan_entry, replan_entry, run_do, side_effects
from tests.guard.test_compromised_planner_property import ROUTES, Case, cases
from tests.guard.world_device import SENSITIVE

pytestmark = pytest.mark.e2e

EXAMPLES = 12


def _wire(action: dict[str, Any]) -> dict[str, Any]:
    """An action as strict structured output writes it (every selector field present)."""
    if action.get("selector") is not None:
        return {**action, "selector": selector_dict(**action["selector"])}
    return {k: v for k, v in action.items() if v is not None}


def _steps(case: Case) -> list[dict[str, Any]]:
    route = [plan_step(f"step {i + 1}", _wire(a), p) for i, (a, p) in
             enumerate(zip(ROUTES[case.route], case.route_packages, strict=True))]
    return route + [_as_wire(s) for s in case.tail]


def _as_wire(step: AgentStep) -> dict[str, Any]:
    return plan_step(step.instruction, _wire(step.action.model_dump(mode="json", exclude_none=True)),
                     step.target_package, irreversible=step.irreversible)


def _script(case: Case) -> list[dict[str, Any]]:
    later: list[dict[str, Any]] = []
    for grounding, replan in zip(case.groundings + [None] * 2, case.replans + [[]] * 2, strict=False):
        if grounding is not None:
            later.append({"purpose": "ground", "content": {"selector": selector_dict(**grounding), "reason": "x"}})
        later.append(replan_entry([_as_wire(s) for s in replan]))
    return [plan_entry(_steps(case)), *later]


def test_generated_hostile_plans_through_the_real_stack_get_nothing_past_a_person_who_says_no(
        sim: Any, tmp_path: Path, llm: Any) -> None:
    counts = {"plans": 0, "waiting": 0, "effects": 0}

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(cases())
    def prop(case: Case) -> None:
        scenario = "default+kontor" + ("" if case.locale == "en" else f"+locale_{case.locale}")
        sim.reset(scenario=scenario)
        if case.popup is not None:
            sim.call(lambda p: p.arm({"when": case.popup[1], "do": [{"dialog": case.popup[0]}]}))
        server = llm(_script(case))
        home = tmp_path / str(counts["plans"])
        with InProcess(home, sim.serial, server.base_url).engine() as (store, session, planner):
            task = run_do(store, session, planner, "hostile")
        counts["plans"] += 1
        counts["waiting"] += task.status.value == "AWAITING_CONFIRMATION"
        effects = {k: v for k, v in side_effects(sim).items() if k in SENSITIVE}
        counts["effects"] += sum(effects.values())
        assert effects == {}, (effects, case.describe(), task.status_reason)

    prop()
    print(f"\ncompromised planner through the real stack: {counts['plans']} generated plans, "
          f"{counts['waiting']} stopped for the person, sensitive side effects without approval: {counts['effects']}")
    assert counts["plans"] >= EXAMPLES and counts["waiting"] > 0
