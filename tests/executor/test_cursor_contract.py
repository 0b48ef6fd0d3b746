"""The cursor contract (docs/architecture.md) on a fake phone: confirmation, write-ahead, failure, retry."""

from __future__ import annotations

import pytest

from starebrain.errors import TaskStateError
from starebrain.executor.task_executor import INTERRUPTED_REASON
from starebrain.models import (
    AgentStep,
    AgentTask,
    AttemptOutcome,
    OpenApp,
    Selector,
    StepStatus,
    Tap,
    TaskStatus,
    TypeText,
)
from tests.executor.conftest import MSG, World


def send_task(*, send_expect: bool = True) -> AgentTask:
    steps = [
        AgentStep(index=0, instruction="Open Messages", action=OpenApp(package=MSG), target_package=MSG),
        AgentStep(index=1, instruction="Open Dana's thread", action=Tap(selector=Selector(text="Dana Whitfield")),
                  target_package=MSG, expect=Selector(resource_id=f"{MSG}:id/compose")),
        AgentStep(index=2, instruction="Write the message",
                  action=TypeText(selector=Selector(resource_id=f"{MSG}:id/compose"), text="Invoice attached"),
                  target_package=MSG),
        AgentStep(index=3, instruction="Send it", action=Tap(selector=Selector(content_desc="Send")),
                  target_package=MSG, irreversible=True,
                  expect=Selector(text="Message sent") if send_expect else None),
    ]
    return AgentTask(instruction="Message Dana", device_serial="fake-0", steps=steps)


def sends(world: World) -> int:
    """Taps that landed on the Send button."""
    return sum(1 for a in world.device.actions if a[0] == "tap" and a[1] >= 900 and a[2] >= 1700)


def test_pauses_before_send_and_committed_that_way(world: World) -> None:
    task = world.executor().start(send_task())
    assert task.status == TaskStatus.AWAITING_CONFIRMATION
    assert task.cursor == 3 and task.steps[3].status == StepStatus.PENDING
    assert sends(world) == 0
    world.reopen()
    stored = world.store.load_task(task.id)
    assert stored.status == TaskStatus.AWAITING_CONFIRMATION and stored.cursor == 3
    assert world.store.pending_confirmation(task.id).approved_hash.startswith(stored.steps[3].approval_hash())
    assert [s.status for s in stored.steps[:3]] == [StepStatus.COMPLETED] * 3


def test_approve_runs_exactly_the_approved_step_once(world: World) -> None:
    task = world.executor().start(send_task())
    task = world.executor().approve(world.store.load_task(task.id), decided_by="cli")
    assert task.status == TaskStatus.COMPLETED
    assert sends(world) == 1
    assert task.steps[3].result.confirmed_by == "cli"
    assert world.device.typed == ["Invoice attached"]


def test_deny_fails_the_task_with_no_side_effect(world: World) -> None:
    task = world.executor().start(send_task())
    task = world.executor().deny(task, decided_by="cli")
    assert task.status == TaskStatus.FAILED and "denied" in task.status_reason
    assert sends(world) == 0
    assert world.store.load_task(task.id).cursor == 3


def test_approval_is_bound_to_the_exact_step(world: World) -> None:
    task = world.executor().start(send_task())
    task.steps[3] = task.steps[3].model_copy(update={"action": Tap(selector=Selector(text="Delete"))})
    world.store.save_task(task)
    with pytest.raises(TaskStateError, match="changed since the question"):
        world.executor().approve(world.store.load_task(task.id), decided_by="cli")
    assert sends(world) == 0


def test_seed003_bug1_an_approved_step_that_fails_stops_the_task(world: World) -> None:
    task = world.executor().start(send_task())
    world.device.screens["thread"].on_tap.clear()  # Send does nothing now: no 'Message sent'
    task = world.executor().approve(task, decided_by="cli")
    # The tap went out but its effect did not show: it may have happened, so the task stops and the
    # person settles it (skip if it happened, approve to redo) — it is never failed and retried blindly.
    assert task.status == TaskStatus.AWAITING_CONFIRMATION and task.status_reason == INTERRUPTED_REASON
    assert task.cursor == 3 and task.steps[3].status == StepStatus.IN_PROGRESS
    last = world.store.attempts(task.id, task.steps[3].id)[-1]
    assert last.outcome == AttemptOutcome.INTERRUPTED and "Message sent" in last.error


def test_seed003_bug2_a_failed_step_keeps_the_cursor_and_retry_reruns_it(world: World) -> None:
    task = send_task()
    task.steps[1] = task.steps[1].model_copy(update={"action": Tap(selector=Selector(text="Dana W."))})
    task = world.executor().start(task)
    assert task.status == TaskStatus.FAILED and task.cursor == 1
    assert task.steps[1].status == StepStatus.FAILED and task.steps[2].status == StepStatus.PENDING
    task.steps[1] = task.steps[1].model_copy(update={"action": Tap(selector=Selector(text="Dana Whitfield"))})
    world.store.save_task(task)
    task = world.executor().retry(world.store.load_task(task.id))
    assert task.status == TaskStatus.AWAITING_CONFIRMATION and task.cursor == 3
    outcomes = [a.outcome for a in world.store.attempts(task.id, task.steps[1].id)]
    assert outcomes == [AttemptOutcome.FAILED, AttemptOutcome.SUCCEEDED]


def test_every_attempt_is_written_ahead_and_closed(world: World) -> None:
    task = world.executor().start(send_task())
    attempts = world.store.attempts(task.id)
    assert len(attempts) == 3 and all(a.outcome == AttemptOutcome.SUCCEEDED for a in attempts)
    assert all(a.hierarchy_path and a.screenshot_path for a in attempts)
    assert set(attempts[0].phases_ms) == {"observe", "decide", "act", "verify"}
    kinds = world.recorder.kinds()
    assert kinds.count("StepStarted") == 3 and kinds[-1] == "ConfirmationRequested"


def test_obstruction_is_cleared_and_recorded(world: World) -> None:
    world.device.launch[MSG] = "rate"
    task = world.executor().start(send_task())
    first = world.store.attempts(task.id, task.steps[1].id)[0]
    assert any("Not now" in o for o in first.obstructions), first.obstructions
    assert ("tap", 780, 950) in world.device.actions  # 'Not now', never 'Rate now'
    assert not any(a[0] == "tap" and a[1] < 500 and 900 <= a[2] <= 1000 for a in world.device.actions)


def test_cancel_closes_the_question_and_keeps_history(world: World) -> None:
    task = world.executor().start(send_task())
    task = world.executor().cancel(task, decided_by="cli")
    assert task.status == TaskStatus.CANCELLED
    assert world.store.pending_confirmation(task.id) is None
    assert len(world.store.attempts(task.id)) == 3
    with pytest.raises(TaskStateError):
        world.executor().cancel(task, decided_by="cli")


def test_a_dialog_that_needs_a_person_blocks_the_step_and_nothing_is_tapped(world: World) -> None:
    from tests.fakes.fake_device import FakeNode, FakeScreen, screen_xml

    app = screen_xml(MSG, [FakeNode(text="Dana Whitfield", bounds=(0, 200, 1080, 350), clickable=True)])
    dialog = screen_xml(MSG, [
        FakeNode(text="Install the Messages Pro add-on?", resource_id="android:id/message",
                 bounds=(100, 700, 980, 800)),
        FakeNode(text="Install", resource_id="android:id/button1", bounds=(580, 900, 980, 1000), clickable=True,
                 class_name="android.widget.Button"),
        FakeNode(text="Not now", resource_id="android:id/button2", bounds=(100, 900, 500, 1000), clickable=True,
                 class_name="android.widget.Button"),
    ]).replace("[0,0][1080,1920]", "[60,600][1020,1100]", 1)
    # two windows, as a real dump shows a dialog: the app's, then the dialog's
    two = app.replace("</hierarchy>", dialog.split('<hierarchy rotation="0">', 1)[1])
    world.device.screens["install"] = FakeScreen("install", two, package=MSG)
    world.device.launch[MSG] = "install"
    task = world.executor().start(send_task())
    assert task.status == TaskStatus.FAILED and task.cursor == 1
    assert "needs a person" in task.status_reason
    assert [a for a in world.device.actions if a[0] == "tap"] == []


def test_a_missing_secret_fails_the_step_cleanly_and_is_never_recorded(world: World, monkeypatch) -> None:
    monkeypatch.delenv("STAREBRAIN_SECRET_SMS_PIN", raising=False)
    task = send_task()
    task.steps[2] = task.steps[2].model_copy(update={"action": TypeText(
        selector=Selector(resource_id=f"{MSG}:id/compose"), text="{secret:sms_pin}")})
    task = world.executor().start(task)
    assert task.status == TaskStatus.FAILED and "STAREBRAIN_SECRET_SMS_PIN" in task.status_reason
    attempt = world.store.attempts(task.id, task.steps[2].id)[-1]
    assert attempt.outcome == AttemptOutcome.FAILED
    assert world.device.typed == []


def test_a_secret_is_typed_but_never_stored(world: World, monkeypatch) -> None:
    monkeypatch.setenv("STAREBRAIN_SECRET_SMS_PIN", "4921-very-secret")
    task = send_task()
    task.steps[2] = task.steps[2].model_copy(update={"action": TypeText(
        selector=Selector(resource_id=f"{MSG}:id/compose"), text="{secret:sms_pin}")})
    task = world.executor().start(task)
    assert world.device.typed == ["4921-very-secret"]
    db = (world.tmp / "sb.db").read_bytes() + b"".join(p.read_bytes() for p in world.tmp.glob("sb.db*"))
    assert b"4921-very-secret" not in db
