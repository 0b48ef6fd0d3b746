"""The seed errand as a flow, through the real CLI, the real adb server and the simulated phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.cli_process import INVOICE_FLOW, Cli

pytestmark = pytest.mark.e2e


def side_effects(sim: Any) -> dict[str, int]:
    return dict(sim.call(lambda phone: phone.state()["side_effects"]))


def test_confirmation_before_send_then_approve_gives_each_effect_once(sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    first = cli.run("run", str(INVOICE_FLOW), "--device", sim.serial)
    assert first.returncode == 3, first.stderr
    assert "awaiting confirmation of step 9: Send the email with the invoice" in first.stderr
    assert side_effects(sim) == {}
    task_id = cli.latest_task_id()
    done = cli.run("approve", task_id)
    assert done.returncode == 0, done.stderr
    assert side_effects(sim) == {"mail_sent": 1, "task_completed": 1}
    detail = cli.show(task_id)
    assert detail["task"]["status"] == "COMPLETED"
    assert [c["decision"] for c in detail["confirmations"]] == ["APPROVED"]
    assert all(a["screenshot_path"] and Path(a["screenshot_path"]).exists() for a in detail["attempts"])


def test_deny_leaves_no_side_effect_and_fails_with_the_reason(sim: Any, tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    assert cli.run("run", str(INVOICE_FLOW), "--device", sim.serial).returncode == 3
    task_id = cli.latest_task_id()
    denied = cli.run("deny", task_id)
    assert denied.returncode == 1
    assert "denied" in denied.stderr
    assert side_effects(sim) == {}
    task = cli.show(task_id)["task"]
    assert task["status"] == "FAILED" and task["cursor"] == 8 and "denied" in task["status_reason"]


def test_unknown_serial_is_one_clear_line_and_exit_4(sim: Any, tmp_path: Path) -> None:
    done = Cli(tmp_path).run("run", str(INVOICE_FLOW), "--device", "emulator-1")
    assert done.returncode == 4
    assert done.stderr.strip().count("\n") == 0 and "no phone with serial 'emulator-1'" in done.stderr


def test_session_handoff_keeps_context_low_and_re_asks_the_pending_question(sim: Any, tmp_path: Path) -> None:
    from starebrain.models import Confidence
    from starebrain.store import Store

    cli = Cli(tmp_path)
    assert cli.run("run", str(INVOICE_FLOW), "--device", sim.serial).returncode == 3
    with Store.open(tmp_path / "starebrain.db") as store:
        ctx = store.load_context(sim.serial)
    assert ctx is not None and ctx.confidence == Confidence.LOW
    assert ctx.current_package == "com.google.android.gm"
    switched = [s.package for s in ctx.recent_switches]
    assert switched.index("com.google.android.apps.messaging") < switched.index("com.google.android.gm")
    assert ctx.entities.get("last_conversation_partner") == "Dana Whitfield"
    again = cli.run("resume")
    assert again.returncode == 3 and "awaiting confirmation of step 9" in again.stderr
    assert side_effects(sim) == {}
