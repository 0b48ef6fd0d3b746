"""The seed instruction through `starebrain do` as its own process, the real openai client and the sim."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from tests.agent.support import SEED, LlmCli, llm_env, plan_entry, probe_report, seed_steps, side_effects

pytestmark = pytest.mark.e2e


def test_seed_plans_once_asks_before_send_and_approve_gives_each_effect_once(sim: Any, tmp_path: Path,
                                                                             llm: Any) -> None:
    server = llm([plan_entry(seed_steps())])
    cli = LlmCli(tmp_path, llm_env(server))
    first = cli.run("do", SEED, "--device", sim.serial)
    assert first.returncode == 3, first.stderr
    assert "awaiting confirmation of step 7: Send the email with the invoice" in first.stderr
    assert [r.purpose for r in server.requests] == ["plan"]
    assert side_effects(sim) == {}
    task_id = cli.latest_task_id()

    approved = cli.run("approve", task_id, probe=True)
    assert approved.returncode == 0, approved.stderr
    probe = probe_report(approved.stderr)
    assert [r.purpose for r in server.requests] == ["plan"]  # nothing failed: no further LLM call
    assert side_effects(sim) == {"mail_sent": 1, "task_completed": 1}
    detail = cli.show(task_id)
    assert detail["task"]["status"] == "COMPLETED" and detail["task"]["source"] == "do"
    assert [c["decision"] for c in detail["confirmations"]] == ["APPROVED"]
    assert all(a["number"] == 1 for a in detail["attempts"])  # no step ran twice
    assert not probe.openai_imported  # approve of a do-task can replan, yet builds no LLM client unasked
    send = next(a for a in detail["attempts"] if a["step_id"] == detail["task"]["steps"][6]["id"])
    first_action = _epoch(send["started_at"])
    print(f"approve: first device action {first_action - probe.ready:.2f} s after the command started "
          f"({first_action - probe.started:.2f} s after process start, imports included); "
          f"openai imported: {probe.openai_imported}")  # a figure to read; timings are not asserted


def _epoch(iso: str) -> float:
    from datetime import datetime

    stamp = datetime.fromisoformat(iso)
    return (stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)).timestamp()
