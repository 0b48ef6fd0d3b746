"""A store with a few tasks at fixed times and ids, so what the TUI shows is deterministic."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from starebrain.models import AgentStep, AgentTask, OpenApp, StepStatus, TaskStatus
from starebrain.store import Store
from tests.report.conftest import T0, build_task

NOW = T0 + timedelta(hours=2)


def fixed_clock() -> datetime:
    return NOW


def simple_task(task_id: str, status: TaskStatus, serial: str, instruction: str, minutes: int) -> AgentTask:
    step = AgentStep(id=f"{task_id}-s1", index=0, instruction="Open Settings",
                     action=OpenApp(package="com.android.settings"),
                     status=StepStatus.COMPLETED if status is TaskStatus.COMPLETED else StepStatus.PENDING)
    return AgentTask(id=task_id, instruction=instruction, device_serial=serial, steps=[step], status=status,
                     cursor=1 if status is TaskStatus.COMPLETED else 0, created_at=T0 + timedelta(minutes=minutes))


def seeded_store(folder: Path) -> Store:
    """A store in `folder` with the report's task (its screenshots on disk), a completed and a pending task."""
    store = Store.open(folder / "sb.db")
    build_task(store, folder / "artifacts")
    store.create_task(simple_task("c0mplete0001", TaskStatus.COMPLETED, "emulator-5556", "Check the Wi-Fi", 30))
    store.create_task(simple_task("pend1ng00001", TaskStatus.PENDING, "emulator-5556", "Open Settings later", 60))
    return store


@pytest.fixture
def tui_store(tmp_path: Path) -> Iterator[Store]:
    store = seeded_store(tmp_path)
    yield store
    store.close()


def plain(renderable: object, width: int = 100) -> str:
    """What a widget's content reads as, without colours."""
    console = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


def sync(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async Pilot test with asyncio.run (no pytest async plugin needed)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return wrapper
