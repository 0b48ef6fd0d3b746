"""Point taps and open_link through `starebrain do` as its own process (real openai client → scripted LLM,
real adb server, the sim): a point tap works, a point tap on a pay button waits for the person (and the
approval covers exactly it), and a mailto: link opens Gmail's compose screen filled from the link."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from starebrain.llmserver import plan_step
from starebrain.sim.world import build_phone
from starebrain.snapshot import ScreenSnapshot
from tests.agent.support import BANK, GMAIL, TASKS, LlmCli, llm_env, open_app, plan_entry, side_effects, tap
from tests.agent.test_guard_bypasses_e2e import _bank_route
from tests.guard.test_act_gate import _transfer_form

pytestmark = pytest.mark.e2e
AWAITING = 3


def _center(phone: Any, rid: str) -> str:
    snap = ScreenSnapshot.from_xml(phone.hierarchy_xml())
    x, y = next(n for n in snap.nodes if n.resource_id == rid).center
    return f"{x},{y}"


def _point_of(step: dict[str, Any]) -> str | None:
    return (step["action"].get("selector") or {}).get("point")


def _open_link(url: str, package: str | None = None) -> dict[str, Any]:
    return plan_step(f"Open {url}", {"kind": "open_link", "url": url, "package": package}, package)


def _cli(sim: Any, tmp_path: Path, llm: Any, steps: list[dict[str, Any]], scenario: str = "default") -> LlmCli:
    sim.reset(scenario=scenario)
    return LlmCli(tmp_path, llm_env(llm([plan_entry(steps)])))


def test_a_point_tap_reaches_the_row_under_it(sim: Any, tmp_path: Path, llm: Any) -> None:
    phone = build_phone("default")
    phone.start_app(TASKS)
    point = _center(phone, f"{TASKS}:id/task_name")
    steps = [open_app(TASKS), tap("Open the project", TASKS, point=point,
                                  expect={"resource_id": f"{TASKS}:id/mark_done_button"})]
    cli = _cli(sim, tmp_path, llm, steps)
    done = cli.run("do", "open the project", "--device", sim.serial)
    assert done.returncode == 0, done.stderr
    task = cli.show(cli.latest_task_id())["task"]
    assert task["status"] == "COMPLETED" and task["steps"][1]["action"]["selector"]["point"] == point


def test_a_point_tap_on_confirm_transfer_waits_for_the_person_and_her_approval_covers_it(
        sim: Any, tmp_path: Path, llm: Any) -> None:
    point = _center(_transfer_form("450"), f"{BANK}:id/confirm_transfer_button")
    steps = [open_app(BANK), *_bank_route("450"), tap("Next", BANK, point=point)]
    cli = _cli(sim, tmp_path, llm, steps)
    rc = cli.run("do", "pay Greg", "--device", sim.serial).returncode
    task_id = cli.latest_task_id()
    for _ in range(6):  # the person approves the sign-in questions of the bank; stops at the point
        task = cli.show(task_id)["task"]
        step = task["steps"][task["cursor"]]
        if rc != AWAITING or _point_of(step):
            break
        rc = cli.run("approve", task_id).returncode
    assert rc == AWAITING and _point_of(step) == point, task
    assert "transfer_made" not in side_effects(sim)
    approved = cli.run("approve", task_id)
    assert approved.returncode == 0, approved.stdout + approved.stderr
    assert side_effects(sim).get("transfer_made") == 1


def test_open_link_mailto_opens_gmail_compose_filled_from_the_link(sim: Any, tmp_path: Path, llm: Any) -> None:
    url = "mailto:dana@whitfieldstudio.com?subject=Invoice%202026-031"
    cli = _cli(sim, tmp_path, llm, [_open_link(url)])
    done = cli.run("do", "write to Dana", "--device", sim.serial)
    assert done.returncode == 0, done.stderr
    assert side_effects(sim).get("link_opened") == 1 and "mail_sent" not in side_effects(sim)
    package, activity = sim.call(lambda phone: phone.current_focus())
    snap = ScreenSnapshot.from_xml(sim.call(lambda phone: phone.hierarchy_xml()))
    to = next(n for n in snap.nodes if n.resource_id == f"{GMAIL}:id/to")
    assert package == GMAIL and activity.endswith("ComposeActivityGmailExternal") and "dana@" in to.text
    effects = sim.call(lambda phone: phone.state()["effects"])
    assert any(e["kind"] == "link_opened" and e["url"] == url and e["package"] == GMAIL for e in effects)
    shown = cli.run("sim", "state", "--serial", sim.serial, "--json")  # what a person reads
    assert shown.returncode == 0, shown.stderr
    assert '"link_opened": 1' in shown.stdout
