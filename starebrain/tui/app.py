"""The history browser: tasks on the left, the selected task's steps and the step's attempts on the right.

It polls `store.events_since(last_id)` on a timer, so a task running in another process shows
its progress live. Actions run in worker threads; the screen stays responsive while a step runs.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import DataTable, Footer, Input, Static

from starebrain.models import AgentTask, TaskStatus, utcnow
from starebrain.report.record import TaskRecord, load_record
from starebrain.report.wording import question
from starebrain.tui.detail import age, step_detail, steps_rows, styled, task_summary
from starebrain.tui.filters import TaskFilter
from starebrain.tui.screens import ConfirmScreen, ScreenshotScreen
from starebrain.tui.task_actions import TaskActions

TASK_COLUMNS = ("id", "status", "device", "instruction", "steps", "tokens", "age")


class HistoryApp(App[None]):
    """`starebrain tui`."""

    TITLE = "StareBrain history"
    CSS = """
    #filter { height: 3; }
    #tasks { width: 60%; height: 1fr; }
    #detail { width: 40%; height: 1fr; border-left: solid $accent; padding: 0 1; }
    .open #tasks { display: none; }
    .open #detail { width: 100%; border-left: none; }
    #steps { height: auto; max-height: 14; }
    #status-line { height: 1; background: $boost; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "approve", "Approve"), Binding("d", "deny", "Deny"), Binding("r", "retry", "Retry"),
        Binding("c", "cancel_task", "Cancel"), Binding("f", "cycle_status", "Status filter"),
        Binding("s", "show_screenshot", "Screenshot"), Binding("escape", "close_task", "Back", show=False),
        Binding("slash", "focus_filter", "Filter"), Binding("q", "quit", "Quit"),
    ]

    def __init__(self, store: Any, *, actions: TaskActions | None = None, task_filter: TaskFilter | None = None,
                 clock: Callable[[], datetime] = utcnow, poll_s: float = 0.5, limit: int = 200,
                 export_dir: Path | None = None) -> None:
        super().__init__()
        self.export_dir = export_dir or Path.cwd()  # where the palette's "Screenshot" saves its SVG
        self.store = store
        self.actions = actions
        self.task_filter = task_filter or TaskFilter()
        self.clock = clock
        self.poll_s = poll_s
        self.limit = limit
        self.tasks: list[AgentTask] = []
        self.record: TaskRecord | None = None
        self.last_event_id = 0
        self.busy: set[str] = set()
        self._room = 0

    def compose(self) -> ComposeResult:
        yield Input(value=self.task_filter.query(), placeholder="filter: status:failed device:emulator-5554 words",
                    id="filter")
        with Horizontal():
            yield DataTable(id="tasks", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="detail"):
                yield Static(id="task-info")
                yield DataTable(id="steps", cursor_type="row")
                yield Static(id="step-info")
        yield Static("", id="status-line")
        yield Footer()

    def on_mount(self) -> None:
        tasks = self.query_one("#tasks", DataTable)
        for name in TASK_COLUMNS:
            tasks.add_column(name, key=name)
        self.query_one("#steps", DataTable).add_columns("#", "status", "step", "tries", "obst.")
        self.last_event_id = self._newest_event_id()
        self.reload()
        self.query_one("#tasks", DataTable).focus()
        self.set_interval(self.poll_s, self.poll)
        self.set_interval(1.0, self.tick_ages)  # "age" keeps counting between events

    # -- data ---------------------------------------------------------------------------------

    def reload(self) -> None:
        """Re-read the task list (filtered) and the selected task."""
        selected = self.selected_task_id
        wanted = self.task_filter
        self.tasks = [t for t in self.store.list_tasks(limit=self.limit) if wanted.matches(t)]
        table = self.query_one("#tasks", DataTable)
        table.clear()
        now = self.clock()
        room = self._room = self._instruction_room()
        for t in self.tasks:
            done = sum(1 for s in t.steps if s.status.value in ("COMPLETED", "SKIPPED"))
            words = t.instruction if len(t.instruction) <= room else t.instruction[: room - 1] + "…"
            table.add_row(t.id, styled(t.status.value), t.device_serial, words, f"{done}/{len(t.steps)}",
                          str(t.prompt_tokens + t.completion_tokens), age(t.created_at, now), key=t.id)
        ids = [t.id for t in self.tasks]
        if selected in ids:
            table.move_cursor(row=ids.index(selected))
        if self._shown_version() != self._selected_version():  # re-read a task only when it changed
            self.show_task(self.selected_task_id)

    def _instruction_room(self) -> int:
        """Columns left for the instruction once id, status, device, steps, tokens and age are shown whole."""
        width = self.query_one("#tasks", DataTable).size.width or int(self.size.width * 0.6)
        widest = {
            "id": max((len(t.id) for t in self.tasks), default=2),
            "status": max((len(t.status.value) for t in self.tasks), default=6),
            "device": max((len(t.device_serial) for t in self.tasks), default=6),
            "steps": max((len(f"{len(t.steps)}/{len(t.steps)}") for t in self.tasks), default=5),
            "tokens": max((len(str(t.prompt_tokens + t.completion_tokens)) for t in self.tasks), default=6),
            "age": 4,
        }
        fixed = sum(max(w, len(name)) for name, w in widest.items()) + 2 * len(TASK_COLUMNS) + 2  # padding
        return max(12, width - fixed)

    def on_resize(self) -> None:
        self.call_after_refresh(self._refit)

    def _refit(self) -> None:
        """After a resize, re-truncate the instructions only if the room for them changed."""
        try:
            if self._instruction_room() != self._room:
                self.reload()
        except NoMatches:  # a resize delivered while the app shuts down
            return

    def tick_ages(self) -> None:
        """Refresh only the age cells (no store read)."""
        try:
            table = self.query_one("#tasks", DataTable)
        except NoMatches:
            return
        now = self.clock()
        for t in self.tasks:
            table.update_cell(t.id, "age", age(t.created_at, now))

    def poll(self) -> None:
        """Live refresh: reload only when another process (or a worker) recorded something new."""
        events = self.store.events_since(self.last_event_id)
        if events:
            self.last_event_id = events[-1].id
            try:
                self.reload()
            except NoMatches:  # a tick delivered while the app shuts down
                return

    @property
    def selected_task_id(self) -> str | None:
        table = self.query_one("#tasks", DataTable)
        if not self.tasks or table.cursor_row < 0 or table.cursor_row >= len(self.tasks):
            return None
        return self.tasks[table.cursor_row].id

    def _selected_version(self) -> tuple[str, datetime] | None:
        task = next((t for t in self.tasks if t.id == self.selected_task_id), None)
        return (task.id, task.updated_at) if task else None

    def _shown_version(self) -> tuple[str, datetime] | None:
        return (self.record.task.id, self.record.task.updated_at) if self.record else None

    def show_task(self, task_id: str | None) -> None:
        """Fill the detail pane with one task (or say there is none)."""
        info, steps = self.query_one("#task-info", Static), self.query_one("#steps", DataTable)
        keep_row = steps.cursor_row if self.record and self.record.task.id == task_id else None
        steps.clear()
        self.record = load_record(self.store, task_id) if task_id else None
        if self.record is None:
            info.update("no task matches the filter")
            self.query_one("#step-info", Static).update("")
            return
        info.update(task_summary(self.record))
        for cells in steps_rows(self.record):
            steps.add_row(*cells)
        last = len(self.record.task.steps) - 1
        row: int = keep_row if keep_row is not None else min(self.record.task.cursor, last)
        steps.move_cursor(row=max(0, row))
        self.show_step(max(0, row))

    def show_step(self, row: int) -> None:
        """The attempts, questions and screenshot of the step in `row`."""
        record = self.record
        if record is None or not record.task.steps:
            return
        step = record.task.steps[min(row, len(record.task.steps) - 1)]
        self.query_one("#step-info", Static).update(step_detail(record, step))

    # -- events -------------------------------------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        try:
            if event.data_table.id == "tasks":
                if self.record is None or self.record.task.id != self.selected_task_id:
                    self.show_task(self.selected_task_id)
            else:
                self.show_step(event.cursor_row)
        except NoMatches:  # a highlight delivered while the app shuts down
            return

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a task opens it: the detail takes the whole window, the steps get the focus."""
        if event.data_table.id == "tasks":
            self.action_open_task()

    def action_open_task(self) -> None:
        if self.selected_task_id is None:
            return
        self.screen.add_class("open")
        self.query_one("#steps", DataTable).focus()

    def action_close_task(self) -> None:
        self.screen.remove_class("open")
        self.query_one("#tasks", DataTable).focus()

    def action_show_screenshot(self) -> None:
        """The selected step's last screenshot at full size."""
        record = self.record
        if record is None or not record.task.steps:
            self.say("no task selected")
            return
        row = self.query_one("#steps", DataTable).cursor_row
        step = record.task.steps[min(max(row, 0), len(record.task.steps) - 1)]
        shots = [a.screenshot_path for a in record.attempts_of(step) if a.screenshot_path]
        self.push_screen(ScreenshotScreen(shots[-1] if shots else None,
                                          f"step {step.index + 1}: {step.instruction} — Esc closes"))

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """The palette's "Screenshot": an SVG of the screen in `export_dir`, its path in the status line."""
        folder = Path(path) if path else self.export_dir
        try:
            folder.mkdir(parents=True, exist_ok=True)
            saved = self.save_screenshot(filename, str(folder), time_format)
        except OSError as exc:
            self.say(f"screenshot not saved: {exc}")
            return None
        self.say(f"screenshot saved: {saved}")
        return saved

    def on_input_changed(self, event: Input.Changed) -> None:
        self.task_filter = TaskFilter.parse(event.value)
        self.reload()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#tasks", DataTable).focus()

    def action_focus_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_cycle_status(self) -> None:
        self.task_filter = self.task_filter.next_status()
        self.query_one("#filter", Input).value = self.task_filter.query()  # Changed reloads

    def action_approve(self) -> None:
        """Approving runs a step someone flagged: say exactly what it does and ask once more."""
        task = next((t for t in self.tasks if t.id == self.selected_task_id), None)
        if task is None or self.actions is None or task.status != TaskStatus.AWAITING_CONFIRMATION:
            self._act("approve", "approving (the step runs on the phone)")  # says why it cannot
            return
        step = task.current_step
        assert step is not None
        text = f"{question(step)}\n\nwhy it was asked: {task.status_reason}"

        def answered(yes: bool | None) -> None:
            if yes:
                self._act("approve", "approving (the step runs on the phone)")
            else:
                self.say(f"{task.id}: not approved; still waiting")

        self.push_screen(ConfirmScreen(text), answered)

    def action_deny(self) -> None:
        self._act("deny", "denying")

    def action_retry(self) -> None:
        self._act("retry", "retrying the failed step on the phone")

    def action_cancel_task(self) -> None:
        self._act("cancel", "cancelling")

    # -- actions in worker threads ---------------------------------------------------------------

    def _act(self, verb: str, doing: str) -> None:
        task_id = self.selected_task_id
        if task_id is None or self.actions is None:
            self.say("no task selected" if task_id is None else "read-only: no actions available")
            return
        if task_id in self.busy:
            self.say(f"{task_id}: an action is already running")
            return
        self.busy.add(task_id)
        self.say(f"{task_id}: {doing}…")
        self.run_worker(lambda: self._run_action(verb, task_id), thread=True, group="actions",
                        name=f"{verb}-{task_id}")

    def _run_action(self, verb: str, task_id: str) -> None:
        try:
            task = getattr(self.actions, verb)(task_id)
            message = f"{task_id}: {verb} → {task.status.value}" + (
                f" ({task.status_reason})" if task.status_reason else "")
        except Exception as exc:  # shown in the status line; the TUI keeps running
            message = f"{task_id}: {verb} failed: {exc}"
        self.call_from_thread(self._action_done, task_id, message)

    def _action_done(self, task_id: str, message: str) -> None:
        self.busy.discard(task_id)
        self.say(message)
        self.reload()

    def say(self, message: str) -> None:
        """One line at the bottom: what is happening, what an action came to."""
        self.query_one("#status-line", Static).update(message)

    def _newest_event_id(self) -> int:
        newest = 0
        while True:  # page to the end once at start; later polls see only new events
            page = self.store.events_since(newest, limit=1000)
            if not page:
                return newest
            newest = page[-1].id
