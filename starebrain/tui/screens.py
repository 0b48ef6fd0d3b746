"""Full-window views pushed over the history: the "are you sure" question and a screenshot at full size."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from starebrain.tui.screenshot_view import screenshot_text


class ConfirmScreen(ModalScreen[bool]):
    """Asks before an approval runs a step: the concrete action, and `y` / `n`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes, run it"), Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    #confirm { width: 80%; height: auto; border: thick $warning; background: $surface; padding: 1 2; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static("Are you sure?", classes="title")
            yield Static(self.text, id="confirm-text")
            yield Static("[b]y[/b] yes, run it on the phone   [b]n[/b] / Esc no, keep it waiting", id="confirm-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ScreenshotScreen(ModalScreen[None]):
    """A screenshot as large as the window allows (`s` or Esc closes it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"), Binding("s", "close", "Close"), Binding("q", "close", "Close"),
    ]
    DEFAULT_CSS = """
    ScreenshotScreen { background: $surface; }
    #shot { width: 100%; height: 1fr; }
    """

    def __init__(self, path: str | None, title: str) -> None:
        super().__init__()
        self.path, self.title_text = path, title

    def compose(self) -> ComposeResult:
        yield Static(self.title_text, id="shot-title")
        with VerticalScroll(id="shot"):
            yield Static(id="shot-image")

    def on_mount(self) -> None:
        self.query_one("#shot-image", Static).update(screenshot_text(self.path, self.fit_width()))

    def fit_width(self) -> int:
        """Columns that make the image as tall as the window (two pixel rows per text row)."""
        rows, columns = max(10, self.app.size.height - 4), max(20, self.app.size.width - 2)
        try:
            from PIL import Image

            with Image.open(self.path or "") as img:
                aspect = img.width / img.height
        except (OSError, ValueError):
            return columns
        return max(20, min(columns, int(2 * rows * aspect)))

    def action_close(self) -> None:
        self.dismiss(None)
