"""Writes are proportional to what changed, and byte-identical to what SQLAlchemy Core would write."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from starebrain.config import load_settings
from starebrain.models import AgentStep, Attempt, AttemptOutcome, Selector, StepResult, StepStatus, Tap
from starebrain.store import Store, database
from starebrain.store.convert import attempt_to_row, row_values, step_to_row, task_to_row
from starebrain.store.events import EVENT
from starebrain.store.history import ATTEMPT
from starebrain.store.tasks import STEP, TASK
from tests.store.sample import make_task


@contextmanager
def statements(store: Store) -> Iterator[list[str]]:
    """Every SQL statement the store's connections run while the block runs (driver-level trace)."""
    seen: list[str] = []

    def trace(driver: sqlite3.Connection, *_: Any) -> None:
        driver.set_trace_callback(seen.append)

    event.listen(store._engine, "checkout", trace)  # before BEGIN, so the trace shows it
    try:
        yield seen
    finally:
        event.remove(store._engine, "checkout", trace)


def step_writes(seen: list[str]) -> int:
    return sum(1 for s in seen if s.startswith("INSERT INTO step"))


@pytest.mark.sqlite_only  # counts statements with sqlite3's trace callback
def test_saving_writes_only_the_steps_that_changed(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    before = store.load_task(task.id).updated_at
    with statements(store) as seen:
        store.save_task(task)
    assert step_writes(seen) == 0
    assert store.load_task(task.id).updated_at > before  # the task row is still written
    task.steps[1].status = StepStatus.IN_PROGRESS
    with statements(store) as seen:
        store.begin_attempt(task, Attempt(task_id=task.id, step_id=task.steps[1].id))
    assert step_writes(seen) == 1
    assert (seen[0], seen[-1]) == ("BEGIN IMMEDIATE", "COMMIT")  # one write-ahead transaction
    assert store.load_task(task.id) == task


@pytest.mark.sqlite_only  # counts statements with sqlite3's trace callback
def test_a_step_changed_behind_the_stores_back_is_still_rewritten(store: Store) -> None:
    task = make_task()
    store.create_task(task)
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("UPDATE step SET status = 'FAILED' WHERE id = ?", (task.steps[0].id,))
    other.close()
    store.save_task(task)  # compared with the stored row, not with a memory of what was written
    assert store.load_task(task.id) == task


def test_rows_are_byte_identical_to_core_writes(tmp_path: Path) -> None:
    task = make_task()
    task.steps[2].status, task.steps[2].result = StepStatus.FAILED, StepResult(ok=False, message="no")
    task.steps.append(AgentStep(instruction="plain", action=Tap(selector=Selector(text="x"))))
    attempt = Attempt(task_id=task.id, step_id=task.steps[0].id, obstructions=["LOADING"],
                      phases_ms={"observe": 1.5}, outcome=AttemptOutcome.FAILED, error="e")
    with Store.open(settings=load_settings(home=tmp_path / "fast")) as store:
        store.create_task(task)
        store.finish_attempt(task, attempt)
        event_id = store.add_event(task.id, "StepFinished", {"index": 0, "status": "FAILED"})
        logged = store.events_since(event_id - 1)[0]
        fast = _raw(store.path)
    with Store.open(settings=load_settings(home=tmp_path / "core")) as store:
        _core_write(store, task, attempt, logged)
        core = _raw(store.path)
    assert fast == core


def _core_write(store: Store, task: Any, attempt: Attempt, logged: Any) -> None:
    """The same rows through SQLAlchemy Core statements (the reference the fast path must equal)."""
    with database.translated(store.path, 1000), store._engine.begin() as conn:
        conn.execute(sqlite_insert(TASK).values(row_values(task_to_row(task))))
        for step in task.steps:
            conn.execute(sqlite_insert(STEP).values(row_values(step_to_row(task.id, step))))
        conn.execute(sqlite_insert(ATTEMPT).values(row_values(attempt_to_row(attempt))))
        conn.execute(sqlite_insert(EVENT).values(id=logged.id, task_id=task.id, kind=logged.kind,
                                                 payload=logged.payload, created_at=logged.created_at))


def _raw(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    conn = sqlite3.connect(path)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                for t in ("task", "step", "attempt", "event")}
    finally:
        conn.close()


def test_background_event_sink_writes_every_event_by_close(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from starebrain.events import StepStarted
    from starebrain.session import StoreEventSink
    from starebrain.store import Store

    with Store.open(tmp_path / "events.db") as store:
        sink = StoreEventSink(store, background=True)
        for i in range(250):
            sink(StepStarted("t1", step_id=f"s{i}", index=i, instruction="x"))
        sink.close()
        events = store.events_since(0, task_id="t1", limit=1000)
    assert [e.payload["index"] for e in events] == list(range(250))
