"""The history decides: answers committed apart, irreversible steps already done, `retry --from`,
and a cancel requested by another process."""

from __future__ import annotations

import pytest

from starebrain.errors import TaskStateError
from starebrain.models import Attempt, AttemptOutcome, Decision, StepStatus, TaskStatus
from tests.executor.conftest import World
from tests.executor.test_cursor_contract import send_task, sends


def test_an_answer_committed_apart_from_its_task_is_applied_by_resume(world: World) -> None:
    task = world.executor().start(send_task())
    question = world.store.pending_confirmation(task.id)
    assert question is not None
    world.store.decide_confirmation(question.id, Decision.APPROVED, "cli")  # as an older version left it
    stuck = world.store.load_task(task.id)
    assert stuck.status == TaskStatus.AWAITING_CONFIRMATION
    done = world.executor().run(stuck)
    assert done.status == TaskStatus.COMPLETED and sends(world) == 1
    assert len(world.store.confirmations(task.id)) == 1  # not asked again


def test_an_irreversible_step_with_a_succeeded_attempt_is_never_asked_or_run_again(world: World) -> None:
    task = world.executor().start(send_task())
    send = task.steps[3]
    send.status = StepStatus.IN_PROGRESS
    attempt = Attempt(task_id=task.id, step_id=send.id, number=1)
    world.store.begin_attempt(task, attempt)
    attempt.outcome = AttemptOutcome.SUCCEEDED
    send.status = StepStatus.PENDING  # an in-memory copy that lost track of it
    task.status = TaskStatus.IN_PROGRESS
    world.store.finish_attempt(task, attempt)
    done = world.executor().run(world.store.load_task(task.id))
    assert done.status == TaskStatus.COMPLETED
    assert sends(world) == 0 and done.steps[3].result.settled_by == "history"  # type: ignore[union-attr]
    assert len(world.store.confirmations(task.id)) == 1


def test_retry_from_moves_back_over_reversible_steps_only(world: World) -> None:
    task = world.executor().start(send_task())
    task.status = TaskStatus.FAILED
    world.store.save_task(task)
    again = world.executor().retry(world.store.load_task(task.id), from_step=2)
    assert again.status == TaskStatus.AWAITING_CONFIRMATION and again.cursor == 3
    opened = [a for a in world.store.attempts(task.id) if a.step_id == task.steps[1].id]
    assert len(opened) == 2  # step 2 ran again
    approved = world.executor().approve(again, decided_by="cli")
    assert approved.status == TaskStatus.COMPLETED and sends(world) == 1
    approved.status, approved.cursor = TaskStatus.FAILED, 3
    approved.steps[3].status = StepStatus.COMPLETED
    world.store.save_task(approved)
    with pytest.raises(TaskStateError, match="step 4 .*irreversible"):
        world.executor().retry(world.store.load_task(task.id), from_step=1)
    assert sends(world) == 1


def test_a_cancel_requested_elsewhere_stops_the_driver_at_the_next_step(world: World) -> None:
    task = send_task()
    world.store.create_task(task)
    world.store.request_cancel(task.id, "tui")
    done = world.executor().run(world.store.load_task(task.id))
    assert done.status == TaskStatus.CANCELLED and "tui" in done.status_reason
    assert world.store.attempts(task.id) == [] and world.device.actions == []
