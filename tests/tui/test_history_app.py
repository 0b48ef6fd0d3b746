"""The TUI through Textual's Pilot: the task table, filters, the detail pane and live refresh."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from textual.widgets import DataTable, Input, Static

from starebrain.models import TaskStatus
from starebrain.store import Store
from starebrain.tui.app import HistoryApp
from tests.report.conftest import T0
from tests.tui.conftest import fixed_clock, plain, simple_task, sync


def rows(app: HistoryApp) -> list[list[str]]:
    table = app.query_one("#tasks", DataTable)
    return [[plain(c).strip() for c in table.get_row_at(i)] for i in range(table.row_count)]


def text_of(app: HistoryApp, selector: str) -> str:
    return plain(app.query_one(selector, Static).content, width=300)


@sync
async def test_the_table_lists_every_task_newest_first(tui_store: Store) -> None:
    app = HistoryApp(tui_store, clock=fixed_clock)
    async with app.run_test(size=(160, 50)):
        assert rows(app) == [
            ["pend1ng00001", "PENDING", "emulator-5556", "Open Settings later", "0/1", "0", "1h"],
            ["c0mplete0001", "COMPLETED", "emulator-5556", "Check the Wi-Fi", "1/1", "0", "1h"],
            ["rep0rt000001", "FAILED", "emulator-5554", "Send the invoice to Dana", "2/3", "1020", "2h"],
        ]


@sync
async def test_filters_by_status_device_and_text(tui_store: Store) -> None:
    app = HistoryApp(tui_store, clock=fixed_clock)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("slash", "s", "t")  # typing goes to the filter box
        assert app.query_one("#filter", Input).value == "st"
        app.query_one("#filter", Input).value = "status:failed"
        await pilot.pause()
        assert [r[3] for r in rows(app)] == ["Send the invoice to Dana"]
        app.query_one("#filter", Input).value = "device:5556 wi-fi"
        await pilot.pause()
        assert [r[3] for r in rows(app)] == ["Check the Wi-Fi"]
        app.query_one("#filter", Input).value = ""
        await pilot.press("enter", "f")  # back to the table; the status cycle starts at PENDING
        assert [r[1] for r in rows(app)] == ["PENDING"]


@sync
async def test_the_detail_pane_shows_steps_attempts_obstructions_questions_and_calls(tui_store: Store) -> None:
    app = HistoryApp(tui_store, clock=fixed_clock)
    async with app.run_test(size=(160, 60)) as pilot:
        app.query_one("#tasks", DataTable).move_cursor(row=2)
        await pilot.pause()
        info = text_of(app, "#task-info")
        assert "rep0rt000001 FAILED on emulator-5554" in info
        assert "reason: step 3 denied: Send the invoice" in info
        assert "DENIED by tui" in info and "LLM plan gpt-4o-mini: 900+120 tokens" in info
        steps = app.query_one("#steps", DataTable)
        assert [plain(steps.get_row_at(i)[2]).strip() for i in range(steps.row_count)] == [
            "Open Messages", "Open Dana's thread", "Send the invoice"]
        steps.focus()
        steps.move_cursor(row=0)
        await pilot.pause()
        first = text_of(app, "#step-info")
        assert "cleared LOADING: Loading… (waited)" in first and "▀" in first and "step01-attempt1.png" in first
        await pilot.press("down")
        second = text_of(app, "#step-info")
        assert 'no element matches text="Dana Whitfield"' in second and "2 retry" in second


@sync
async def test_live_refresh_shows_what_another_process_records(tui_store: Store) -> None:
    app = HistoryApp(tui_store, clock=fixed_clock, poll_s=0.05)
    async with app.run_test(size=(160, 50)) as pilot:
        other = Store.open(tui_store.path)  # a second connection, as `starebrain run` elsewhere would hold
        try:
            task = simple_task("l1ve00000001", TaskStatus.IN_PROGRESS, "emulator-5558", "Running elsewhere", 100)
            other.create_task(task)
            other.add_event(task.id, "TaskStarted", {"steps": 1})
            for _ in range(100):  # bounded: 100 × 50 ms
                await pilot.pause(0.05)
                if rows(app)[0][3] == "Running elsewhere":
                    break
            assert rows(app)[0][:4] == ["l1ve00000001", "IN_PROGRESS", "emulator-5558", "Running elsewhere"]
            task.status = TaskStatus.COMPLETED
            task.created_at = T0 + timedelta(minutes=100)
            other.save_task(task)
            other.add_event(task.id, "TaskFinished", {"status": "COMPLETED"})
            for _ in range(100):
                await pilot.pause(0.05)
                if rows(app)[0][1] == "COMPLETED":
                    break
            assert rows(app)[0][1] == "COMPLETED"
        finally:
            other.close()


@sync
async def test_read_only_without_actions(tui_store: Store) -> None:
    app = HistoryApp(tui_store, clock=fixed_clock)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("d")
        assert "read-only" in text_of(app, "#status-line")


@sync
async def test_every_column_fits_and_the_instruction_gives_way_on_a_narrow_window(tui_store: Store) -> None:
    for width, whole in ((160, True), (130, False)):
        app = HistoryApp(tui_store, clock=fixed_clock)
        async with app.run_test(size=(width, 40)) as pilot:
            await pilot.pause()
            table = app.query_one("#tasks", DataTable)
            assert table.virtual_size.width <= table.size.width  # nothing pushed out of sight
            assert [c.label.plain for c in table.columns.values()] == [
                "id", "status", "device", "instruction", "steps", "tokens", "age"]
            invoice = rows(app)[2][3]
            assert (invoice == "Send the invoice to Dana") is whole and (whole or invoice.endswith("…"))


@sync
async def test_enter_opens_the_task_and_escape_goes_back(tui_store: Store) -> None:
    app = HistoryApp(tui_store, clock=fixed_clock)
    async with app.run_test(size=(160, 50)) as pilot:
        app.query_one("#tasks", DataTable).move_cursor(row=2)
        await pilot.press("enter")
        assert app.screen.has_class("open") and not app.query_one("#tasks").display
        assert app.focused is app.query_one("#steps", DataTable)
        assert "rep0rt000001 FAILED" in text_of(app, "#task-info")
        await pilot.press("escape")
        assert not app.screen.has_class("open") and app.query_one("#tasks").display


@sync
async def test_s_shows_the_step_screenshot_full_size(tui_store: Store) -> None:
    from starebrain.tui.screens import ScreenshotScreen

    app = HistoryApp(tui_store, clock=fixed_clock)
    async with app.run_test(size=(160, 50)) as pilot:
        app.query_one("#tasks", DataTable).move_cursor(row=2)
        await pilot.press("enter", "up", "up", "s")  # the first step, whose screenshot is on disk
        assert isinstance(app.screen, ScreenshotScreen)
        for _ in range(100):  # the screen draws its image in on_mount: a loaded machine may need a few turns
            art = plain(app.screen.query_one("#shot-image", Static).content, width=300)
            if "▀" in art:
                break
            await pilot.pause(0.05)
        block_rows = [line for line in art.splitlines() if "▀" in line]
        assert len(block_rows) >= 40 and max(len(r.strip()) for r in block_rows) >= 36  # not a thumbnail
        assert "step01-attempt1.png" in art
        await pilot.press("escape")
        assert not isinstance(app.screen, ScreenshotScreen)


@sync
async def test_age_counts_on_without_new_events(tui_store: Store) -> None:
    now = [T0 + timedelta(hours=2)]
    app = HistoryApp(tui_store, clock=lambda: now[0])
    async with app.run_test(size=(160, 50)) as pilot:
        assert rows(app)[0][6] == "1h"
        now[0] = T0 + timedelta(hours=5)
        app.tick_ages()
        await pilot.pause()
        assert [r[6] for r in rows(app)] == ["4h", "4h", "5h"]


@sync
async def test_the_palette_screenshot_is_saved_where_it_says(tui_store: Store, tmp_path: Path) -> None:
    app = HistoryApp(tui_store, clock=fixed_clock, export_dir=tmp_path / "shots")
    async with app.run_test(size=(160, 50)) as pilot:
        saved = app.deliver_screenshot()
        await pilot.pause()
        assert saved is not None and Path(saved).parent == tmp_path / "shots"
        assert Path(saved).read_text().startswith("<svg")
        assert f"screenshot saved: {saved}" in text_of(app, "#status-line")
