"""Write-ahead: what a method committed survives a SIGKILL the instant it returns."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from starebrain.config import Settings
from starebrain.errors import TaskStateError
from starebrain.models import Attempt, AttemptOutcome, StepStatus, TaskStatus
from starebrain.store import Store
from tests.store.processes import run_python
from tests.store.sample import make_task

KILLED_AFTER = """
    import os, signal, sys
    from starebrain.config import load_settings
    from starebrain.models import Attempt, AttemptOutcome, StepStatus, TaskStatus
    from starebrain.store import Store
    store = Store.open({db!r}, settings=load_settings())
    task = store.load_task({task_id!r})
    step = task.steps[0]
    step.status = StepStatus.IN_PROGRESS
    task.status = TaskStatus.IN_PROGRESS
    attempt = Attempt(id="attempt-1", task_id=task.id, step_id=step.id)
    store.begin_attempt(task, attempt)
    if {finish!r}:
        step.status = StepStatus.COMPLETED
        task.cursor = 1
        attempt.outcome = AttemptOutcome.SUCCEEDED
        store.finish_attempt(task, attempt)
    os.kill(os.getpid(), signal.SIGKILL)  # no close(), no atexit, no flush
"""


def _kill_after(tmp_path: Path, settings: Settings, finish: bool) -> tuple[Store, str]:
    with Store.open(settings=settings) as store:
        task = make_task()
        store.create_task(task)
    code = KILLED_AFTER.format(db=settings.db_url or str(settings.db_path), task_id=task.id, finish=finish)
    result = run_python(code, cwd=tmp_path)
    assert result.returncode == -signal.SIGKILL, result.stderr
    return Store.open(settings=settings), task.id


def test_begin_attempt_is_on_disk_before_the_device_is_touched(tmp_path: Path, settings: Settings) -> None:
    store, task_id = _kill_after(tmp_path, settings, finish=False)
    task = store.load_task(task_id)
    assert task.status is TaskStatus.IN_PROGRESS and task.cursor == 0
    assert task.steps[0].status is StepStatus.IN_PROGRESS
    [attempt] = store.attempts(task_id)
    assert (attempt.id, attempt.outcome, attempt.ended_at) == ("attempt-1", AttemptOutcome.RUNNING, None)
    store.close()


def test_finish_attempt_commits_step_and_cursor_together(tmp_path: Path, settings: Settings) -> None:
    store, task_id = _kill_after(tmp_path, settings, finish=True)
    task = store.load_task(task_id)
    assert (task.cursor, task.steps[0].status) == (1, StepStatus.COMPLETED)
    [attempt] = store.attempts(task_id)
    assert attempt.outcome is AttemptOutcome.SUCCEEDED and attempt.ended_at is not None
    store.close()


def test_a_new_attempt_marks_a_crashed_one_interrupted(tmp_path: Path, settings: Settings) -> None:
    store, task_id = _kill_after(tmp_path, settings, finish=False)
    task = store.load_task(task_id)
    retry = Attempt(task_id=task_id, step_id=task.steps[0].id,
                    number=store.next_attempt_number(task_id, task.steps[0].id))
    store.begin_attempt(task, retry)
    outcomes = {a.id: (a.outcome, a.number) for a in store.attempts(task_id)}
    assert outcomes == {"attempt-1": (AttemptOutcome.INTERRUPTED, 1), retry.id: (AttemptOutcome.RUNNING, 2)}
    store.close()


def test_begin_attempt_refuses_a_step_not_marked_in_progress(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    with pytest.raises(TaskStateError, match="must be IN_PROGRESS"):
        store.begin_attempt(task, Attempt(task_id=task.id, step_id=task.steps[0].id))
    assert store.attempts(task.id) == []
