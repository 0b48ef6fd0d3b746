"""Approve and deny from the keyboard, on a simulated phone, through the engine builder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from starebrain.config import load_settings
from starebrain.engine import build_engine
from starebrain.events import EventBus
from starebrain.flows.flow_file import load_flow
from starebrain.models import AgentTask, TaskStatus
from starebrain.store import Store
from starebrain.tui.app import HistoryApp
from starebrain.tui.task_actions import EngineTaskActions
from tests.regression.conftest import EXAMPLES
from tests.tui.conftest import sync

pytestmark = pytest.mark.e2e


@pytest.fixture
def waiting_reply(sim: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Store, str]:
    """The messages-reply flow run up to its Send step: AWAITING_CONFIRMATION, nothing sent yet."""
    monkeypatch.setenv("STAREBRAIN_HOME", str(tmp_path / "sb"))
    settings = load_settings()
    store = Store.open(settings=settings)
    flow = load_flow(EXAMPLES / "messages-reply.yaml")
    task = AgentTask(instruction=flow.instruction, device_serial=sim.serial, steps=flow.steps)
    with build_engine(settings, store, sim.serial, events=EventBus()) as session:
        task = session.executor.start(task)
    assert task.status == TaskStatus.AWAITING_CONFIRMATION
    return store, task.id


def sent(sim: Any) -> int:
    return int(sim.call(lambda phone: phone.state()["side_effects"].get("message_sent", 0)))


async def press_and_wait(app: HistoryApp, pilot: Any, key: str, task_id: str, status: str) -> None:
    await pilot.press(key)
    for _ in range(300):  # bounded: 300 × 50 ms
        await pilot.pause(0.05)
        if app.store.load_task(task_id).status.value == status and not app.busy:
            return
    raise AssertionError(f"task {task_id} did not become {status}: {app.store.load_task(task_id).status}")


@sync
async def test_deny_from_the_keyboard_fails_the_task_and_sends_nothing(sim: Any, waiting_reply: tuple) -> None:
    store, task_id = waiting_reply
    app = HistoryApp(store, actions=EngineTaskActions(load_settings()), poll_s=0.1)
    async with app.run_test(size=(160, 50)) as pilot:
        assert app.selected_task_id == task_id
        await press_and_wait(app, pilot, "d", task_id, "FAILED")
        await pilot.pause(0.2)
        table_status = app.query_one("#tasks").get_row_at(0)[1]
        assert str(table_status) == "FAILED"
    assert sent(sim) == 0
    (question,) = store.confirmations(task_id)
    assert question.decision.value == "DENIED" and question.decided_by == "tui"
    store.close()


@sync
async def test_approve_from_the_keyboard_runs_the_step_on_the_phone(sim: Any, waiting_reply: tuple) -> None:
    store, task_id = waiting_reply
    app = HistoryApp(store, actions=EngineTaskActions(load_settings()), poll_s=0.1)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("a")  # one key never sends: it asks, naming exactly what will happen
        await pilot.pause()
        asked = str(app.screen.query_one("#confirm-text").content)
        assert asked.startswith("Step 5, “Send the reply”: tap “Send SMS” in com.google.android.apps.messaging?")
        assert "This cannot be undone." in asked
        await pilot.press("n")
        await pilot.pause()
        assert "not approved; still waiting" in str(app.query_one("#status-line").content)
        assert store.load_task(task_id).status.value == "AWAITING_CONFIRMATION" and sent(sim) == 0
        await pilot.press("a")
        await pilot.pause()
        await press_and_wait(app, pilot, "y", task_id, "COMPLETED")
        assert "approve → COMPLETED" in str(app.query_one("#status-line").content)
    assert sent(sim) == 1
    task = store.load_task(task_id)
    assert task.steps[4].result.confirmed_by == "tui"
    store.close()
