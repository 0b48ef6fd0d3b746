"""Screen-dependent flows on a simulated phone: retry, optional, assertions, and the cursor contract
for a confirmed step inside a condition, a retry block and a sub-flow, across a new session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from starebrain.config import load_settings
from starebrain.engine import build_engine
from starebrain.events import EventBus
from starebrain.flows.driver import DECIDED_TRUE, FlowDriver
from starebrain.flows.flow_file import load_flow
from starebrain.models import AgentTask, StepStatus, TaskStatus
from starebrain.store import Store

pytestmark = pytest.mark.e2e

HEAD = "format: starebrain-flow\nversion: 2\n"
MESSAGING = "com.google.android.apps.messaging"
REPLY = HEAD + f"""\
env: {{TEXT: "On my way"}}
steps:
  - press: home
  - open_app: {{package: {MESSAGING}, fresh: true}}
  - run_flow: {{file: send.yaml, params: {{WHO: Mom}}}}
    when: {{visible: Mom}}
  - press: back
"""
# The same errand with the sub-flow inside a `repeat: while` loop (one turn) instead of a condition.
REPLY_IN_LOOP = REPLY.replace("""  - run_flow: {file: send.yaml, params: {WHO: Mom}}
    when: {visible: Mom}
""", """  - repeat:
      while: {visible: Mom}
      max: 1
      steps: [{run_flow: {file: send.yaml, params: {WHO: Mom}}}]
""")
SEND = HEAD + f"""\
steps:
  - retry:
      max: 1
      steps:
        - tap: {{resource_id: "{MESSAGING}:id/conversation_name", text: "${{WHO}}"}}
          expect: {{resource_id: "{MESSAGING}:id/conversation_title", text: "${{WHO}}"}}
        - type: {{selector: {{resource_id: "{MESSAGING}:id/compose_message_text"}}, text: "${{TEXT}}"}}
        - tap: {{resource_id: "{MESSAGING}:id/send_message_button"}}
          label: Send the reply to ${{WHO}}
          irreversible: true
  - press: back
"""


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setenv("STAREBRAIN_HOME", str(tmp_path / "sb"))
    with Store.open(settings=load_settings()) as opened:
        yield opened


def run(store: Store, serial: str, path: Path, task: AgentTask | None = None,
        approve: bool = False) -> AgentTask:
    """One session (as one process would have): start or resume the flow's task, approve if asked."""
    flow = load_flow(path)
    with build_engine(load_settings(), store, serial, events=EventBus()) as session:
        driver = FlowDriver(session.executor, store, flow.program)
        if task is None:
            task = driver.start(AgentTask(instruction=flow.instruction, device_serial=serial, source="flow:test"))
        else:
            task = driver.resume(task)
        if approve and task.status == TaskStatus.AWAITING_CONFIRMATION:
            waiting = task
            task = driver.drive(lambda: session.executor.approve(waiting, "test"))
    return task


def sent(sim: Any) -> int:
    return int(sim.call(lambda phone: phone.state()["side_effects"].get("message_sent", 0)))


@pytest.mark.parametrize("reply", [REPLY, REPLY_IN_LOOP], ids=["when", "repeat-while"])
def test_a_confirmed_step_in_a_condition_or_loop_retry_and_sub_flow_is_asked_resumed_and_never_repeated(
        sim: Any, store: Store, tmp_path: Path, reply: str) -> None:
    (tmp_path / "send.yaml").write_text(SEND)
    (tmp_path / "reply.yaml").write_text(reply)
    asked = run(store, sim.serial, tmp_path / "reply.yaml")
    assert asked.status == TaskStatus.AWAITING_CONFIRMATION and sent(sim) == 0
    assert asked.current_step is not None and asked.current_step.instruction == "Send the reply to Mom"
    decision = asked.steps[2]
    assert decision.result is not None and decision.result.settled_by == DECIDED_TRUE  # persisted first
    assert decision.instruction.startswith("Repeat while" if reply is REPLY_IN_LOOP else "When")

    again = run(store, sim.serial, tmp_path / "reply.yaml", store.load_task(asked.id))  # a new session
    assert again.status == TaskStatus.AWAITING_CONFIRMATION and again.cursor == asked.cursor
    assert [s.id for s in again.steps] == [s.id for s in asked.steps]  # nothing re-planned or re-added

    done = run(store, sim.serial, tmp_path / "reply.yaml", store.load_task(asked.id), approve=True)
    assert done.status == TaskStatus.COMPLETED, done.status_reason
    assert sent(sim) == 1
    send = next(s for s in done.steps if s.instruction == "Send the reply to Mom")
    assert send.result is not None and send.result.confirmed_by == "test"
    assert len(store.attempts(done.id, send.id)) == 1
    assert [s.instruction for s in done.steps][-2:] == ["Press back", "Press back"]

    after = run(store, sim.serial, tmp_path / "reply.yaml", store.load_task(done.id))
    assert after.status == TaskStatus.COMPLETED and sent(sim) == 1 and len(after.steps) == len(done.steps)


def test_retry_runs_the_block_again_and_keeps_the_failed_attempt_visible(
        sim: Any, store: Store, tmp_path: Path) -> None:
    sim.call(lambda phone: phone.inject("trigger", when="enter com.android.settings/network", times=1,
                                        do=[{"back": True}]))
    path = tmp_path / "flow.yaml"
    path.write_text(HEAD + """steps:
  - press: home
  - open_app: {package: com.android.settings, fresh: true}
  - retry:
      max: 2
      steps:
        - tap: {text: "Network & internet"}
        - assert_visible: {resource_id: "com.android.settings:id/wifi_summary", timeout_s: 0.5}
  - press: back
""")
    task = run(store, sim.serial, path)
    assert task.status == TaskStatus.COMPLETED, task.status_reason
    taps = [s.status for s in task.steps if s.instruction.startswith("Tap")]
    assert taps[0] == StepStatus.FAILED and taps[-1] == StepStatus.COMPLETED  # attempt 1 reported, not hidden
    assert len(taps) == 2 and task.steps[-1].instruction == "Press back"


def test_an_optional_step_is_skipped_and_a_failed_assertion_fails_the_flow_with_its_reason(
        sim: Any, store: Store, tmp_path: Path) -> None:
    path = tmp_path / "flow.yaml"
    path.write_text(HEAD + """steps:
  - press: home
  - open_app: {package: com.android.settings, fresh: true}
  - tap: {text: Rate this app}
    optional: true
  - assert_not_visible: {text: "Network & internet", timeout_s: 0.3}
    label: No network entry
  - press: back
""")
    task = run(store, sim.serial, path)
    assert task.status == TaskStatus.FAILED
    assert task.steps[2].status == StepStatus.SKIPPED and "optional step failed" in task.steps[2].result.message  # type: ignore[union-attr]
    assert task.steps[3].instruction == "No network entry" and task.steps[3].status == StepStatus.FAILED
    assert 'text="Network & internet" is not visible: not so after 0.3 s' in task.status_reason
    assert len(task.steps) == 4  # nothing after the failed assertion was added or run
