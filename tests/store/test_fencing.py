"""Fenced, versioned writes: a stale copy or a process that lost its lease writes nothing."""

from __future__ import annotations

import sqlite3
import time

import pytest

from starebrain.errors import CancelRequested, DeviceBusy, LeaseLost, StaleWrite
from starebrain.models import Attempt, Confirmation, Decision, LlmCall, StepStatus, TaskStatus
from starebrain.store import Store
from starebrain.store.lease_keeper import LeaseKeeper
from tests.store.sample import make_task

SERIAL = "emulator-5554"


def test_the_fencing_token_grows_at_every_change_of_holder(store: Store) -> None:
    first = store.acquire_lease(SERIAL, "a", ttl_s=60)
    assert store.acquire_lease(SERIAL, "a", ttl_s=60).fence == first.fence == 1  # the same holder again
    first.release()
    assert store.lease_of(SERIAL) is None
    second = store.acquire_lease(SERIAL, "b", ttl_s=0.05)
    time.sleep(0.1)
    third = store.acquire_lease(SERIAL, "c", ttl_s=60)  # b's lease expired: taken over
    assert (second.fence, third.fence) == (2, 3)


def test_a_stale_copy_of_a_task_is_refused_and_overwrites_nothing(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    stale = store.load_task(task.id)
    task.status = TaskStatus.COMPLETED
    task.cursor = 3
    store.save_task(task)
    stale.status, stale.cursor = TaskStatus.FAILED, 1
    with pytest.raises(StaleWrite, match="changed by another process"):
        store.save_task(stale)
    kept = store.load_task(task.id)
    assert (kept.status, kept.cursor, kept.version) == (TaskStatus.COMPLETED, 3, task.version)


def test_a_writer_whose_lease_was_taken_over_writes_nothing(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    mine = store.acquire_lease(SERIAL, "suspended", ttl_s=0.05)
    driver = store.fenced(mine)
    time.sleep(0.1)
    store.acquire_lease(SERIAL, "another", ttl_s=60)
    task.steps[0].status = StepStatus.IN_PROGRESS
    with pytest.raises(LeaseLost, match="fence 1"):
        driver.begin_attempt(task, Attempt(task_id=task.id, step_id=task.steps[0].id))
    assert store.attempts(task.id) == []
    assert store.load_task(task.id).steps[0].status == StepStatus.PENDING


def test_a_decision_commits_with_the_task_or_not_at_all(store: Store) -> None:
    task = make_task()
    task.cursor, task.status = 2, TaskStatus.AWAITING_CONFIRMATION
    store.create_task(task)
    question = Confirmation(task_id=task.id, step_id=task.steps[2].id, approved_hash="h", reason="send")
    store.add_confirmation(question)
    stale = store.load_task(task.id)
    store.save_task(task)  # someone else moved the task on
    stale.status = TaskStatus.IN_PROGRESS
    with pytest.raises(StaleWrite):
        store.decide(stale, question.id, Decision.APPROVED, "cli")
    assert store.pending_confirmation(task.id) is not None  # the answer was not recorded either
    fresh = store.load_task(task.id)
    fresh.status = TaskStatus.IN_PROGRESS
    store.decide(fresh, question.id, Decision.APPROVED, "cli")
    assert store.load_task(task.id).status == TaskStatus.IN_PROGRESS
    assert store.confirmations(task.id)[0].decision == Decision.APPROVED


def test_a_cancel_request_stops_the_next_attempt(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    store.request_cancel(task.id[:6], "cli")
    assert store.cancel_requested(task.id) == "cli"
    task.steps[0].status = StepStatus.IN_PROGRESS
    with pytest.raises(CancelRequested):
        store.begin_attempt(task, Attempt(task_id=task.id, step_id=task.steps[0].id))
    assert store.attempts(task.id) == []


def test_the_keeper_knows_its_lease_is_gone_before_the_next_action(store: Store) -> None:
    now = [1000.0]
    keeper = LeaseKeeper(store, SERIAL, "driver", ttl_s=30, clock=lambda: now[0])
    try:
        keeper.check()  # in date: nothing written
        with pytest.raises(DeviceBusy):
            store.acquire_lease(SERIAL, "another", ttl_s=30)
        store.release_lease(keeper.lease)  # as if it had expired and been taken over
        store.acquire_lease(SERIAL, "another", ttl_s=30)
        keeper.check()  # still trusts its last renewal while comfortably in date
        now[0] += 25  # as after a SIGSTOP: close to the end, so it renews first, and finds it gone
        with pytest.raises(LeaseLost):
            keeper.check()
        with pytest.raises(LeaseLost):
            keeper.check()  # and stays gone
    finally:
        keeper.release()
    assert store.lease_of(SERIAL).holder == "another"  # type: ignore[union-attr]


@pytest.mark.sqlite_only  # a second SQLite connection holds the write lock
def test_the_keeper_rides_out_a_locked_database_until_its_lease_would_end(store: Store) -> None:
    now = [1000.0]
    keeper = LeaseKeeper(store, SERIAL, "driver", ttl_s=30, clock=lambda: now[0])
    try:
        locker = sqlite3.connect(store.path, isolation_level=None, timeout=5)
        locker.execute("BEGIN IMMEDIATE")  # another writer holds the database
        try:
            now[0] += 25
            keeper.check()  # cannot renew, but the lease is still in date: carry on
            now[0] += 10
            with pytest.raises(LeaseLost, match="could not be renewed"):
                keeper.check()
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        keeper.check()  # the database is free again: renewed, still ours
        assert keeper.lost is None
    finally:
        keeper.release()


def test_a_plan_commits_its_steps_with_its_calls_or_nothing(store: Store) -> None:
    task = make_task()
    steps, task.steps = task.steps, []
    store.create_task(task)  # a `do --queue` task: the instruction only
    mine = store.acquire_lease(SERIAL, "suspended", ttl_s=0.05)
    driver = store.fenced(mine)
    time.sleep(0.1)
    store.acquire_lease(SERIAL, "another", ttl_s=60)
    task.steps = steps
    with pytest.raises(LeaseLost, match="fence 1"):
        driver.save_plan(task, [LlmCall(purpose="plan", model="m", prompt_tokens=5)], new=False)
    assert store.load_task(task.id).steps == [] and store.llm_calls(task.id) == []
    store.save_plan(task, [LlmCall(purpose="plan", model="m", prompt_tokens=5)], new=False)
    planned = store.load_task(task.id)
    assert len(planned.steps) == len(steps) and planned.prompt_tokens == 5
    assert [c.task_id for c in store.llm_calls(task.id)] == [task.id]
