"""The TUI's look, compared with a stored SVG (`app.export_screenshot()`), with fixed ids, times and clock.

Regenerate after an intended change: STAREBRAIN_UPDATE_SNAPSHOTS=1 pytest tests/tui/test_snapshot.py
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable

from starebrain.store import Store
from starebrain.tui.app import HistoryApp
from tests.tui.conftest import fixed_clock, seeded_store, sync

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
FIXED_DIR = Path("/tmp/starebrain-tui-snapshot")  # a fixed path: screenshot paths are shown (and wrapped)


@pytest.fixture
def snap_store() -> Iterator[Store]:
    # One fixed directory for every test of this module, on every xdist worker: they take turns.
    with open(f"{FIXED_DIR}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        shutil.rmtree(FIXED_DIR, ignore_errors=True)
        FIXED_DIR.mkdir(parents=True)
        store = seeded_store(FIXED_DIR)
        yield store
        store.close()
        shutil.rmtree(FIXED_DIR, ignore_errors=True)


def normalized(svg: str, store: Store) -> str:
    """The SVG's class prefix is a hash of the render; the decision time is the wall clock's."""
    for c in store.confirmations("rep0rt000001"):
        if c.decided_at is not None:
            svg = svg.replace(c.decided_at.strftime("%Y-%m-%d&#160;%H:%M:%S"), "DECIDED-AT")
    return re.sub(r"terminal-\d+", "terminal", svg)


def check(name: str, svg: str) -> None:
    stored = SNAPSHOTS / name
    if os.environ.get("STAREBRAIN_UPDATE_SNAPSHOTS") == "1" or not stored.exists():
        stored.write_text(svg, encoding="utf-8")
    assert svg == stored.read_text(encoding="utf-8"), f"{name} changed; see module docstring to regenerate"


async def settle(pilot: Any) -> None:
    """Let the post-layout refit and any refresh it queued finish before the screen is exported."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


@sync
async def test_history_screen_matches_the_stored_snapshot(snap_store: Store) -> None:
    app = HistoryApp(snap_store, clock=fixed_clock)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        check("history.svg", normalized(app.export_screenshot(), snap_store))


@sync
async def test_failed_task_detail_matches_the_stored_snapshot(snap_store: Store) -> None:
    app = HistoryApp(snap_store, clock=fixed_clock)
    async with app.run_test(size=(140, 60)) as pilot:
        app.query_one("#tasks", DataTable).move_cursor(row=2)
        await pilot.pause()
        steps = app.query_one("#steps", DataTable)
        steps.focus()
        steps.move_cursor(row=1)
        await settle(pilot)
        check("failed-task.svg", normalized(app.export_screenshot(), snap_store))
