"""Touch, keys and text for `WorldPhone`: what a finger and the soft keyboard do."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from starebrain.sim.phone import UiNode
from starebrain.sim.world.actions import run_ops
from starebrain.sim.world.app_window import STATUS_H
from starebrain.sim.world.frame import Frame, Target
from starebrain.sim.world.keys import press
from starebrain.sim.world.navigation import Navigator
from starebrain.sim.world.nodes import contains

if TYPE_CHECKING:
    from starebrain.sim.world.world_phone import WorldPhone


class TouchInput:
    """Input handling mixed into `WorldPhone` (which provides the state and frames used here)."""

    nav: Navigator
    display: tuple[int, int]
    display_on: bool
    keyboard_visible: bool
    shade_open: bool
    recents_open: bool
    heads_up: dict[str, Any] | None
    clipboard: str | None
    dialog_specs: dict[str, dict[str, Any]]

    def _phone(self) -> WorldPhone:
        return cast("WorldPhone", self)

    if TYPE_CHECKING:  # provided by WorldPhone; declared here for the type checker only
        def frame(self) -> Frame: ...
        def _input(self, action: Callable[[], Any]) -> Any: ...
        def visible_dialog(self) -> dict[str, Any] | None: ...
        def dismiss_dialog(self) -> None: ...
        def go_home(self) -> None: ...

    def tap(self, x: float, y: float, duration_ms: float = 0) -> bool:
        """A touch at a point, delivered to the topmost window there."""
        if not self.display_on:
            return True
        self._input(lambda: self._tap(x, y))
        return True

    def _tap(self, x: float, y: float) -> None:
        hit = self.frame().hit(x, y)
        if hit is None:
            return
        window, target, _node = hit
        if target is None:
            if window.modal and not contains(window.root.bounds, x, y):
                self._tap_outside_dialog()
            return
        self._activate(target, (x, y))

    def _tap_outside_dialog(self) -> None:
        dialog = self.visible_dialog()
        if dialog is not None and self.dialog_specs[dialog["name"]].get("cancel_on_outside", False):
            self.dismiss_dialog()

    def _activate(self, target: Target, point: tuple[float, float] | None = None) -> None:
        if target.kind == "field":
            self.focus_field(target.name)
        elif target.kind == "key":
            self._key(target.name)
        elif target.kind == "canvas":
            region = next((r for r in target.regions if r.at(*point)), None) if point else None
            if region is not None:  # a touch between the drawn buttons does nothing
                run_ops(self._phone(), list(region.ops), target.ctx)
        else:
            run_ops(self._phone(), list(target.ops), target.ctx)

    def _key(self, name: str) -> None:
        actions: dict[str, Callable[[], object]] = {
            "del": self.backspace, "enter": self.enter, "space": lambda: self.input_text(" "),
            "shift": lambda: None, "symbols": lambda: None}
        actions.get(name, lambda: self.input_text(name))()

    def swipe(self, x1: float, y1: float, x2: float, y2: float, steps: int = 55) -> bool:
        """A swipe: shade from the top edge, home from the bottom edge, else scroll the list under it."""
        if not self.display_on:
            return True
        self._input(lambda: self._swipe(x1, y1, x2, y2))
        return True

    def _swipe(self, x1: float, y1: float, x2: float, y2: float) -> None:
        dy = y2 - y1
        if self.shade_open:
            self.shade_open = dy > -200
            return
        if y1 < STATUS_H and dy > 200:
            self.shade_open = True
            return
        if y1 > self.display[1] - 60 and dy < -300:
            self.go_home()
            return
        hit = self.frame().hit(x1, y1, want="scroll")
        if hit is not None and hit[0].role == "notification" and (abs(dy) > 100 or abs(x2 - x1) > 100):
            self.heads_up = None
            return
        if hit is not None and hit[1] is not None and hit[0].role == "app" and self.nav.tasks.get(self.nav.foreground):
            target, scroll = hit[1], self.nav.top().scroll
            scroll[target.name] = int(min(max(scroll.get(target.name, 0) - dy, 0), target.max_scroll))

    def press_key(self, key: str | int) -> bool:
        """A u2 key name or an Android keycode."""
        return bool(self._input(lambda: press(self._phone(), key)))

    def focus_field(self, key: str) -> None:
        """Focus a field of the top screen and show the keyboard."""
        if self.nav.tasks.get(self.nav.foreground):
            self.nav.top().focus = key
            self.keyboard_visible = True

    def _focused_form(self) -> tuple[dict[str, str], str] | None:
        tasks = self.nav.tasks.get(self.nav.foreground)
        if not tasks or self.recents_open or tasks[-1].focus is None:
            return None
        return tasks[-1].form, tasks[-1].focus

    def set_text(self, node: UiNode, text: str) -> bool:
        """ACTION_SET_TEXT on a field node: replaces its text (does not focus it, as on Android)."""
        if not node.key.startswith("field:") or not self.nav.tasks.get(self.nav.foreground):
            return False
        field = node.key[len("field:"):]
        if node.key not in {n.key for n in self.frame().windows[1].root.iter()}:
            return False
        self.nav.top().form[field] = text
        return True

    def input_text(self, text: str) -> None:
        """Text into the focused field (clipboard paste, `input text`, keyboard keys)."""
        focused = self._focused_form()
        if focused is not None:
            form, key = focused
            form[key] = form.get(key, "") + text

    def backspace(self) -> None:
        """Delete the last character of the focused field."""
        focused = self._focused_form()
        if focused is not None:
            form, key = focused
            form[key] = form.get(key, "")[:-1]

    def enter(self) -> None:
        """The IME action: a field's `submit` ops, else hide the keyboard."""
        focused = self._focused_form()
        if focused is None:
            return
        for target in self.frame().targets.values():
            if target.kind == "field" and target.name == focused[1] and target.ops:
                run_ops(self._phone(), list(target.ops), target.ctx)
                return
        self.keyboard_visible = False

    def clear_focused_text(self) -> None:
        """Empty the focused field."""
        focused = self._focused_form()
        if focused is not None:
            focused[0][focused[1]] = ""

    def get_clipboard(self) -> str | None:
        """The clipboard text."""
        return self.clipboard

    def set_clipboard(self, text: str | None) -> None:
        """Set the clipboard text."""
        self.clipboard = text
