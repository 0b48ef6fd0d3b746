"""Every obstruction the simulated phone can put in the way is cleared without the LLM and recorded on the
attempt; the dangerous ones (install, pay, terms, account) are never tapped and stop the task for a person.

The engine runs in-process (the objects `starebrain do` wires) against the sim, the real adb server and a
scripted LLM behind the real openai client: one plan request per case, never a second one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from starebrain.models import TaskStatus
from starebrain.store import Store
from tests.agent.support import (
    BANK,
    GMAIL,
    MESSAGING,
    SEED,
    SEND_INDEX,
    TASKS,
    InProcess,
    LlmCli,
    llm_env,
    open_app,
    plan_entry,
    run_do,
    seed_steps,
    side_effects,
    tap,
    type_into,
)

pytestmark = pytest.mark.e2e

FILES = "com.google.android.documentsui"
MESSAGES_PLAN = [open_app(MESSAGING), tap("Open Dana's thread", MESSAGING, text="Dana Whitfield",
                                          expect={"resource_id": f"{MESSAGING}:id/compose_message_text"})]
GMAIL_PLAN = [open_app(GMAIL), tap("Start a new email", GMAIL, resource_id=f"{GMAIL}:id/compose_button",
                                   expect={"resource_id": f"{GMAIL}:id/to"}),
              type_into("Address it to Dana", GMAIL, "dana@whitfieldstudio.com", resource_id=f"{GMAIL}:id/to")]
TASKS_PLAN = [open_app(TASKS), tap("Open the client's project", TASKS, text="Whitfield website redesign")]
FILES_PLAN = [open_app(FILES), tap("Open Documents", FILES, text="Documents")]
BANK_PLAN = [open_app(BANK),
             type_into("Enter the password", BANK, "hunter2", resource_id=f"{BANK}:id/password_input"),
             tap("Sign in", BANK, resource_id=f"{BANK}:id/sign_in_button"),
             tap("Open the transfer form", BANK, resource_id=f"{BANK}:id/transfer_button"),
             type_into("Payee", BANK, "Dana Whitfield", resource_id=f"{BANK}:id/payee_input"),
             type_into("Amount", BANK, "5", resource_id=f"{BANK}:id/amount_input"),
             tap("Confirm the transfer", BANK, resource_id=f"{BANK}:id/confirm_transfer_button")]


@dataclass
class Case:
    scenario: str
    steps: list[dict[str, Any]]
    recorded: list[str] = field(default_factory=list)  # substrings each expected in some attempt's obstructions
    needs_person: bool = False  # a dangerous dialog: nothing tapped, the task stops for a person
    approvals: int = 0  # confirmations the person gives (the bank transfer)


# whats_new, anr and update_required are covered (with permission) by OBSTACLE_COURSE below.
CLEARED = [
    Case("spinner", GMAIL_PLAN, ["LOADING"]),
    Case("rate_us", MESSAGES_PLAN, ['OVERLAY: dialog "Enjoying Messages?"']),
    Case("overlay_injection", MESSAGES_PLAN, ['OVERLAY: dialog "Enjoying Messages?"']),
    Case("permission", MESSAGES_PLAN, ["PERMISSION: \"Allow Messages"]),
    Case("heads_up_injection", GMAIL_PLAN),  # not in the way of these taps: nothing to clear, no LLM either
    Case("keyboard_covers_button", BANK_PLAN, ["KEYBOARD"], approvals=2),
]
OBSTACLE_COURSE = Case("obstacle_course", seed_steps(), ["SYSTEM_DIALOG", "What's new", "PERMISSION",
                                                         '"Update" is never pressed'])
DANGEROUS = [
    Case("install_prompt", FILES_PLAN, needs_person=True),
    Case("pay_now", MESSAGES_PLAN, needs_person=True),
    Case("terms", TASKS_PLAN, needs_person=True),
    Case("add_account", GMAIL_PLAN, needs_person=True),
    Case("dangerous_overlays", seed_steps(), needs_person=True),
]


def _run(case: Case, sim: Any, tmp_path: Path, llm: Any) -> tuple[Any, list[Any], Any]:
    sim.reset(scenario=case.scenario)
    sim.wait_online()
    server = llm([plan_entry(case.steps)])
    engine = InProcess(tmp_path, sim.serial, server.base_url)
    with engine.engine() as (store, session, planner):
        task = run_do(store, session, planner, SEED)
        for _ in range(case.approvals):
            assert task.status == TaskStatus.AWAITING_CONFIRMATION, task.status_reason
            task = session.executor.approve(task, "test-person")
        return task, store.attempts(task.id), server


@pytest.mark.parametrize("case", CLEARED, ids=lambda c: c.scenario)
def test_obstruction_is_cleared_without_the_llm_and_recorded(case: Case, sim: Any, tmp_path: Path,
                                                             llm: Any) -> None:
    task, attempts, server = _run(case, sim, tmp_path, llm)
    assert [r.purpose for r in server.requests] == ["plan"]
    assert task.status in (TaskStatus.COMPLETED, TaskStatus.AWAITING_CONFIRMATION), task.status_reason
    assert all(a.outcome.value == "SUCCEEDED" for a in attempts), [a.error for a in attempts]
    recorded = [line for a in attempts for line in a.obstructions]
    for wanted in case.recorded:
        assert any(wanted in line for line in recorded), (wanted, recorded)
    assert side_effects(sim).get("dangerous_tap", 0) == 0
    print(f"{case.scenario}: {len(recorded)} obstruction(s) cleared, LLM requests {len(server.requests)}")


@pytest.mark.parametrize("case", DANGEROUS, ids=lambda c: c.scenario)
def test_dangerous_dialog_is_never_tapped_and_stops_for_a_person(case: Case, sim: Any, tmp_path: Path,
                                                                 llm: Any) -> None:
    task, attempts, server = _run(case, sim, tmp_path, llm)
    assert [r.purpose for r in server.requests] == ["plan"]  # no replan: a new plan cannot get past it
    assert task.status == TaskStatus.FAILED
    assert "needs a person" in task.status_reason and "no replan" in task.status_reason
    assert side_effects(sim).get("dangerous_tap", 0) == 0
    assert attempts[-1].error.startswith("blocked, needs a person")
    print(f"{case.scenario}: stopped: {task.status_reason}")


def test_obstacle_course_is_cleared_and_shown_by_show_json(sim: Any, tmp_path: Path, llm: Any) -> None:
    task, _, server = _run(OBSTACLE_COURSE, sim, tmp_path, llm)
    assert [r.purpose for r in server.requests] == ["plan"]
    assert task.status == TaskStatus.AWAITING_CONFIRMATION and task.cursor == SEND_INDEX
    shown = LlmCli(tmp_path, llm_env(server)).run("show", task.id, "--json")
    assert shown.returncode == 0, shown.stderr
    lines = [line for a in json.loads(shown.stdout)["attempts"] for line in a["obstructions"]]
    for wanted in OBSTACLE_COURSE.recorded:
        assert any(wanted in line for line in lines), (wanted, lines)
    with Store.open(tmp_path / "starebrain.db") as store:
        assert len(store.llm_calls(task.id)) == 1
    assert side_effects(sim).get("dangerous_tap", 0) == 0
