"""Contract point 7 and device faults: an interrupted step is settled, never replayed blindly."""

from __future__ import annotations

import pytest

from starebrain.errors import ActionOutcomeUnknown, DeviceOffline
from starebrain.executor.task_executor import INTERRUPTED_REASON
from starebrain.models import AttemptOutcome, StepStatus, TaskStatus
from tests.executor.conftest import World
from tests.executor.test_cursor_contract import send_task, sends


def approve_into_lost_send(world: World, *, performed: bool, expect: bool = True) -> str:
    """Approve the Send step while the connection drops during the tap."""
    task = world.executor().start(send_task(send_expect=expect))
    world.device.outcome_unknown_next_action(performed=performed)
    with pytest.raises(ActionOutcomeUnknown):
        world.executor().approve(task, decided_by="cli")
    world.reopen()
    stored = world.store.load_task(task.id)
    assert stored.status == TaskStatus.IN_PROGRESS and stored.steps[3].status == StepStatus.IN_PROGRESS
    return task.id


def test_send_that_happened_is_settled_by_expect_without_rerun(world: World) -> None:
    task_id = approve_into_lost_send(world, performed=True)
    task = world.executor().run(world.store.load_task(task_id))
    assert task.status == TaskStatus.COMPLETED
    assert sends(world) == 1
    assert task.steps[3].result.settled_by == "expect"
    assert "StepRecovered" in world.recorder.kinds()


def test_send_with_unknown_outcome_goes_to_the_person(world: World) -> None:
    task_id = approve_into_lost_send(world, performed=True, expect=False)
    task = world.executor().run(world.store.load_task(task_id))
    assert task.status == TaskStatus.AWAITING_CONFIRMATION
    assert task.status_reason == INTERRUPTED_REASON and sends(world) == 1
    outcomes = [a.outcome for a in world.store.attempts(task_id, task.steps[3].id)]
    assert outcomes == [AttemptOutcome.INTERRUPTED]
    task = world.executor().skip(task, decided_by="cli")  # the person: "it went out already"
    assert task.status == TaskStatus.COMPLETED and sends(world) == 1
    assert task.steps[3].status == StepStatus.SKIPPED


def test_send_that_did_not_happen_is_redone_on_approval(world: World) -> None:
    task_id = approve_into_lost_send(world, performed=False)
    task = world.executor().run(world.store.load_task(task_id))
    assert task.status == TaskStatus.AWAITING_CONFIRMATION and task.status_reason == INTERRUPTED_REASON
    task = world.executor().approve(task, decided_by="cli")
    assert task.status == TaskStatus.COMPLETED and sends(world) == 1


def test_reversible_step_found_in_progress_is_simply_rerun(world: World) -> None:
    task = send_task()
    world.store.create_task(task)
    task.status = TaskStatus.IN_PROGRESS
    task.cursor = 0
    task.steps[0].status = StepStatus.IN_PROGRESS  # as if killed mid-step
    world.store.save_task(task)
    task = world.executor().run(world.store.load_task(task.id))
    assert task.status == TaskStatus.AWAITING_CONFIRMATION and task.cursor == 3
    assert ("open_app", "com.google.android.apps.messaging") in world.device.actions


def test_phone_gone_before_acting_pauses_and_resumes(world: World) -> None:
    world.device.offline_after_calls = 4  # observe/open/observe... then offline mid step 2
    task = send_task()
    with pytest.raises(DeviceOffline):
        world.executor().start(task)
    stored = world.store.load_task(task.id)
    assert stored.status == TaskStatus.IN_PROGRESS and "phone lost" in stored.status_reason
    step = stored.current_step
    assert step.status in (StepStatus.PENDING, StepStatus.IN_PROGRESS)
    world.device.come_back()
    task = world.executor().run(stored)
    assert task.status == TaskStatus.AWAITING_CONFIRMATION and task.cursor == 3
    assert sends(world) == 0
